// The analysis cache's entry format: a compact byte stream, not JSON — an
// entry of a 20,000-line unit holds tens of thousands of obligations, and a
// JSON document of them took as long to read back as the analysis itself.
// Numbers are LEB128 varints (signed ones zigzag-coded); strings are interned
// as they are written: an index into the strings seen so far, and for a new
// one (index == count) its length and bytes. The reader checks every bound
// and every enum range; anything unexpected makes the entry unusable.
#include "gradual/analysis_serial.h"

#include <cstring>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace gshape::gradual {

namespace {

constexpr uint64_t kFormat = 8;  // 3: uncalled_only; 4: origin; 5: compiled_visits; 6: partial_visits; 7: not_analysed; 8: hooked_visits
constexpr const char kMagic[] = "GSAU";

class Writer {
 public:
  void u(uint64_t v) {
    while (v >= 0x80) {
      out_ += static_cast<char>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    out_ += static_cast<char>(v);
  }
  void i(int64_t v) { u((static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63)); }
  void b(bool v) { u(v ? 1 : 0); }
  void d(double v) {
    uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    u(bits);
  }
  void s(const std::string& v) {
    auto [it, fresh] = strings_.emplace(v, strings_.size());
    u(it->second);
    if (fresh) {
      u(v.size());
      out_ += v;
    }
  }
  void loc(const SourceLoc& l) {
    s(l.file ? l.file->path() : std::string());
    u(l.line);
    u(l.column);
    u(l.begin);
    u(l.end);
  }
  void strings(const std::vector<std::string>& v) {
    u(v.size());
    for (const std::string& x : v) s(x);
  }
  void notes(const std::vector<DiagnosticNote>& v) {
    u(v.size());
    for (const DiagnosticNote& n : v) {
      loc(n.loc);
      s(n.message);
      u(static_cast<uint64_t>(n.kind));
      s(n.id);
    }
  }
  void diagnostics(const std::vector<Diagnostic>& v) {
    u(v.size());
    for (const Diagnostic& x : v) {
      u(static_cast<uint64_t>(x.severity));
      loc(x.loc);
      s(x.path);
      s(x.message);
      s(x.tag);
      notes(x.notes);
    }
  }
  std::string take() { return std::move(out_); }

 private:
  std::string out_;
  std::unordered_map<std::string, uint64_t> strings_;
};

struct Malformed : std::runtime_error {
  Malformed() : std::runtime_error("malformed analysis cache entry") {}
};

class Reader {
 public:
  Reader(std::string_view text, const Project& unit) : p_(text.data()), end_(text.data() + text.size()) {
    for (const ProjectModule& m : unit.modules) files_.emplace(m.file->path(), m.file.get());
  }
  uint64_t u() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ == end_) throw Malformed();
      auto byte = static_cast<unsigned char>(*p_++);
      v |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if (!(byte & 0x80)) return v;
    }
    throw Malformed();
  }
  uint64_t u(uint64_t max) {
    uint64_t v = u();
    if (v > max) throw Malformed();
    return v;
  }
  uint32_t u32() { return static_cast<uint32_t>(u(0xffffffffu)); }
  int64_t i() {
    uint64_t v = u();
    return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
  }
  bool b() { return u(1) != 0; }
  double d() {
    uint64_t bits = u();
    double v;
    std::memcpy(&v, &bits, sizeof v);
    return v;
  }
  const std::string& s() {
    uint64_t index = u(strings_.size());
    last_index_ = static_cast<std::size_t>(index);
    if (index < strings_.size()) return strings_[index];
    uint64_t n = u();
    if (n > static_cast<uint64_t>(end_ - p_)) throw Malformed();
    strings_.emplace_back(p_, static_cast<std::size_t>(n));
    p_ += n;
    return strings_.back();
  }
  // The constraint the string read last spells, parsed once per distinct
  // string (most constraints of a unit repeat: the same rule on the same
  // operand slots), shared (a CExpr is immutable); null when it does not parse.
  CExpr parsed_last() {
    if (parsed_.size() <= last_index_) parsed_.resize(last_index_ + 1);
    auto& [done, expr] = parsed_[last_index_];
    if (!done) {
      std::string error;
      expr = parse_sexpr(strings_[last_index_], &error);
      done = true;
    }
    return expr;
  }
  // A count of items that take at least one byte each.
  std::size_t count() { return static_cast<std::size_t>(u(static_cast<uint64_t>(end_ - p_))); }
  SourceLoc loc() {
    SourceLoc l;
    const std::string& path = s();
    if (!path.empty()) {
      auto it = files_.find(path);
      if (it == files_.end()) throw Malformed();
      l.file = it->second;
    }
    l.line = u32();
    l.column = u32();
    l.begin = u32();
    l.end = u32();
    if (l.file && (l.begin > l.end || l.end > l.file->text().size())) throw Malformed();
    return l;
  }
  std::vector<std::string> strings() {
    std::vector<std::string> v(count());
    for (std::string& x : v) x = s();
    return v;
  }
  std::vector<DiagnosticNote> notes() {
    std::vector<DiagnosticNote> v(count());
    for (DiagnosticNote& n : v) {
      n.loc = loc();
      n.message = s();
      n.kind = static_cast<NoteKind>(u(static_cast<uint64_t>(NoteKind::Help)));
      n.id = s();
    }
    return v;
  }
  std::vector<Diagnostic> diagnostics() {
    std::vector<Diagnostic> v(count());
    for (Diagnostic& x : v) {
      x.severity = static_cast<Severity>(u(static_cast<uint64_t>(Severity::Error)));
      x.loc = loc();
      x.path = s();
      x.message = s();
      x.tag = s();
      x.notes = notes();
    }
    return v;
  }
  bool at_end() const { return p_ == end_; }

 private:
  const char* p_;
  const char* end_;
  std::vector<std::string> strings_;  // strings_.back() stays valid: a deque is not needed, readers copy
  std::size_t last_index_ = 0;        // the index s() read last
  std::vector<std::pair<bool, CExpr>> parsed_;  // by string index: parsed yet, and the expression
  std::map<std::string, const SourceFile*> files_;
};

void write_obligation(Writer& w, const AnalysedObligation& a) {
  const Obligation& ob = a.ob;
  w.loc(ob.loc);
  w.s(ob.rule);
  w.s(ob.tag);
  w.u(static_cast<uint64_t>(ob.status));
  w.u(static_cast<uint64_t>(a.outcome));
  w.s(a.constraint_sexpr());
  w.s(a.static_constraint());
  w.s(a.message());
  w.s(a.message_template());
  w.b(a.runtime_checkable());
  w.b(ob.decided_without_z3);
  w.b(ob.decided_by_witness);
  w.i(a.contexts);
  w.b(a.uncalled_only);
  w.s(a.context_note);
  w.s(ob.reason);
  w.s(ob.origin);
  w.u(ob.example.size());
  for (const auto& [name, value] : ob.example) {
    w.s(name);
    w.i(value);
  }
  w.u(ob.slots.size());
  for (const SlotInfo& s : ob.slots) {
    w.i(s.slot);
    w.s(s.description);
    w.loc(s.loc);
  }
  w.u(ob.core.size());
  for (const FactRef& f : ob.core) {
    w.loc(f.loc);
    w.s(f.description);
  }
  w.notes(a.notes);
}

AnalysedObligation read_obligation(Reader& r) {
  AnalysedObligation a;
  Obligation& ob = a.ob;
  ob.loc = r.loc();
  ob.rule = r.s();
  ob.tag = r.s();
  ob.status = static_cast<Status>(r.u(static_cast<uint64_t>(Status::Deferred)));
  a.outcome = static_cast<Outcome>(r.u(static_cast<uint64_t>(Outcome::Deferred)));
  auto frozen = std::make_shared<AnalysedObligation::Frozen>();
  frozen->constraint_sexpr = r.s();
  // the expression for readers of ob.constraint.expr(); the printers read the frozen text
  if (CExpr expr = r.parsed_last()) ob.constraint = BoolTerm(std::move(expr), Pred(true));
  frozen->static_constraint = r.s();
  a.message_text = r.s();
  frozen->message_template = r.s();
  frozen->runtime_checkable = r.b();
  a.frozen = std::move(frozen);
  ob.decided_without_z3 = r.b();
  ob.decided_by_witness = r.b();
  int64_t contexts = r.i();
  if (contexts < 0 || contexts > 2'000'000'000) throw Malformed();
  a.contexts = static_cast<int>(contexts);
  a.uncalled_only = r.b();
  a.context_note = r.s();
  ob.reason = r.s();
  ob.origin = r.s();
  ob.example.resize(r.count());
  for (auto& [name, value] : ob.example) {
    name = r.s();
    value = r.i();
  }
  ob.slots.resize(r.count());
  for (SlotInfo& s : ob.slots) {
    int64_t slot = r.i();
    if (slot < -1 || slot > 1'000'000) throw Malformed();
    s.slot = static_cast<int>(slot);
    s.description = r.s();
    s.loc = r.loc();
  }
  ob.core.resize(r.count());
  for (FactRef& f : ob.core) {
    f.loc = r.loc();
    f.description = r.s();
  }
  a.notes = r.notes();
  return a;
}

}  // namespace

std::string serialise_result(const AnalysisResult& r) {
  Writer w;
  w.u(kFormat);
  w.u(r.obligations.size());
  for (const AnalysedObligation& a : r.obligations) write_obligation(w, a);
  w.u(r.shapes.size());
  for (const ShapeRecord& x : r.shapes) {
    w.loc(x.loc);
    w.strings(x.shapes);
  }
  w.u(r.sites.size());
  for (const SiteSummary& x : r.sites) {
    w.loc(x.loc);
    w.i(x.visits);
    w.i(x.compiled_visits);
    w.i(x.partial_visits);
    w.b(x.unresolved);
    w.b(x.unmodelled);
    w.b(x.not_proven);
    w.b(x.unknown_rank);
    w.strings(x.rules);
    w.strings(x.no_rule);
    w.s(x.what);
    w.b(x.unknown_operand);
    w.b(x.not_analysed);
    w.i(x.hooked_visits);
  }
  w.diagnostics(r.internal);
  w.diagnostics(r.annotation_problems);
  w.diagnostics(r.advice);
  const AnalysisStats& st = r.stats;
  for (uint64_t v : {st.raw_obligations, st.decided_without_z3, st.decided_by_witness, st.z3_checks, st.z3_unknown,
                     st.solver_cache_hits, st.functions_analysed, st.memo_hits, st.budget_exhausted,
                     st.module_failures, st.steps})
    w.u(v);
  w.d(st.z3_seconds);
  return std::string(kMagic) + w.take();
}

std::optional<AnalysisResult> deserialise_result(std::string_view text, const Project& unit) {
  const std::size_t magic = sizeof kMagic - 1;
  if (text.compare(0, magic, kMagic) != 0) return std::nullopt;
  try {
    Reader rd(text.substr(magic), unit);
    if (rd.u() != kFormat) return std::nullopt;
    AnalysisResult r;
    // (built in place: a value-initialised obligation then assigned was
    // twice the work of reading one)
    const std::size_t obligations = rd.count();
    r.obligations.reserve(obligations);
    for (std::size_t i = 0; i < obligations; ++i) {
      r.obligations.push_back(read_obligation(rd));
      r.obligations.back().ob.id = static_cast<int>(i);
    }
    r.shapes.resize(rd.count());
    for (ShapeRecord& x : r.shapes) {
      x.loc = rd.loc();
      x.shapes = rd.strings();
    }
    r.sites.resize(rd.count());
    for (SiteSummary& x : r.sites) {
      x.loc = rd.loc();
      int64_t visits = rd.i();
      if (visits < 0 || visits > 2'000'000'000) throw Malformed();
      x.visits = static_cast<int>(visits);
      int64_t compiled = rd.i();
      if (compiled < 0 || compiled > visits) throw Malformed();
      x.compiled_visits = static_cast<int>(compiled);
      int64_t partial = rd.i();
      if (partial < 0 || partial > visits) throw Malformed();
      x.partial_visits = static_cast<int>(partial);
      x.unresolved = rd.b();
      x.unmodelled = rd.b();
      x.not_proven = rd.b();
      x.unknown_rank = rd.b();
      x.rules = rd.strings();
      x.no_rule = rd.strings();
      x.what = rd.s();
      x.unknown_operand = rd.b();
      x.not_analysed = rd.b();
      int64_t hooked = rd.i();
      if (hooked < 0 || hooked > visits) throw Malformed();
      x.hooked_visits = static_cast<int>(hooked);
    }
    r.internal = rd.diagnostics();
    r.annotation_problems = rd.diagnostics();
    r.advice = rd.diagnostics();
    AnalysisStats& st = r.stats;
    for (uint64_t* v : {&st.raw_obligations, &st.decided_without_z3, &st.decided_by_witness, &st.z3_checks,
                        &st.z3_unknown, &st.solver_cache_hits, &st.functions_analysed, &st.memo_hits,
                        &st.budget_exhausted, &st.module_failures, &st.steps})
      *v = rd.u();
    st.z3_seconds = rd.d();
    if (!rd.at_end()) return std::nullopt;
    return r;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace gshape::gradual
