// The analysis cache's entry format: one JSON object per unit result.
#include "gradual/analysis_serial.h"

#include <map>
#include <sstream>
#include <stdexcept>

#include "frontend/json_reader.h"
#include "frontend/json_writer.h"

namespace gshape::gradual {

namespace {

constexpr int64_t kFormat = 1;

void write_loc(JsonWriter& w, const SourceLoc& l) {
  w.begin_array();
  w.value(l.file ? l.file->path() : std::string());
  w.value(static_cast<uint64_t>(l.line)).value(static_cast<uint64_t>(l.column));
  w.value(static_cast<uint64_t>(l.begin)).value(static_cast<uint64_t>(l.end));
  w.end_array();
}

void write_strings(JsonWriter& w, const std::vector<std::string>& v) {
  w.begin_array();
  for (const std::string& s : v) w.value(s);
  w.end_array();
}

void write_notes(JsonWriter& w, const std::vector<DiagnosticNote>& notes) {
  w.begin_array();
  for (const DiagnosticNote& n : notes) {
    w.begin_object();
    w.key("loc");
    write_loc(w, n.loc);
    w.field("message", n.message).field("kind", static_cast<int>(n.kind)).field("id", n.id);
    w.end_object();
  }
  w.end_array();
}

void write_diagnostics(JsonWriter& w, const std::vector<Diagnostic>& ds) {
  w.begin_array();
  for (const Diagnostic& d : ds) {
    w.begin_object();
    w.field("severity", static_cast<int>(d.severity));
    w.key("loc");
    write_loc(w, d.loc);
    w.field("path", d.path).field("message", d.message).field("tag", d.tag);
    w.key("notes");
    write_notes(w, d.notes);
    w.end_object();
  }
  w.end_array();
}

void write_obligation(JsonWriter& w, const AnalysedObligation& a) {
  const Obligation& ob = a.ob;
  w.begin_object();
  w.key("loc");
  write_loc(w, ob.loc);
  w.field("rule", ob.rule).field("tag", ob.tag);
  w.field("status", static_cast<int>(ob.status)).field("outcome", static_cast<int>(a.outcome));
  w.field("constraint", a.constraint_sexpr()).field("static_constraint", a.static_constraint());
  w.field("message", a.message()).field("message_template", a.message_template());
  w.field("runtime_checkable", a.runtime_checkable());
  w.field("decided_without_z3", ob.decided_without_z3).field("decided_by_witness", ob.decided_by_witness);
  w.field("contexts", a.contexts).field("context_note", a.context_note).field("reason", ob.reason);
  w.key("example").begin_array();
  for (const auto& [name, value] : ob.example) w.begin_array().value(name).value(value).end_array();
  w.end_array();
  w.key("slots").begin_array();
  for (const SlotInfo& s : ob.slots) {
    w.begin_object().field("slot", s.slot).field("description", s.description).key("loc");
    write_loc(w, s.loc);
    w.end_object();
  }
  w.end_array();
  w.key("core").begin_array();
  for (const FactRef& f : ob.core) {
    w.begin_object().key("loc");
    write_loc(w, f.loc);
    w.field("description", f.description).end_object();
  }
  w.end_array();
  w.key("notes");
  write_notes(w, a.notes);
  w.end_object();
}

// ---- reading: any surprise throws Malformed, and the entry is ignored

struct Malformed : std::runtime_error {
  Malformed() : std::runtime_error("malformed analysis cache entry") {}
};

const Json& member(const Json& j, const char* key) {
  const Json* m = j.find(key);
  if (!m) throw Malformed();
  return *m;
}
const std::vector<Json>& array_of(const Json& j) {
  if (!j.is_array()) throw Malformed();
  return j.array;
}
const std::vector<Json>& array_at(const Json& j, const char* key) { return array_of(member(j, key)); }
const std::string& string_of(const Json& j) {
  if (j.type != Json::Type::String) throw Malformed();
  return j.string;
}
const std::string& string_at(const Json& j, const char* key) { return string_of(member(j, key)); }
int64_t int_of(const Json& j) {
  if (j.type != Json::Type::Number || static_cast<double>(j.integer) != j.number) throw Malformed();
  return j.integer;
}
int64_t int_at(const Json& j, const char* key) { return int_of(member(j, key)); }
int64_t int_in(const Json& j, const char* key, int64_t lo, int64_t hi) {
  int64_t v = int_at(j, key);
  if (v < lo || v > hi) throw Malformed();
  return v;
}
uint32_t u32_of(const Json& j) {
  int64_t v = int_of(j);
  if (v < 0 || v > 0xffffffffLL) throw Malformed();
  return static_cast<uint32_t>(v);
}
uint64_t u64_at(const Json& j, const char* key) {
  int64_t v = int_at(j, key);
  if (v < 0) throw Malformed();
  return static_cast<uint64_t>(v);
}
bool bool_at(const Json& j, const char* key) {
  const Json& m = member(j, key);
  if (m.type != Json::Type::Bool) throw Malformed();
  return m.boolean;
}
double double_at(const Json& j, const char* key) {
  const Json& m = member(j, key);
  if (m.type != Json::Type::Number) throw Malformed();
  return m.number;
}

struct Reader {
  std::map<std::string, const SourceFile*> files;

  SourceLoc loc(const Json& j) const {
    const std::vector<Json>& a = array_of(j);
    if (a.size() != 5) throw Malformed();
    SourceLoc l;
    const std::string& path = string_of(a[0]);
    if (!path.empty()) {
      auto it = files.find(path);
      if (it == files.end()) throw Malformed();
      l.file = it->second;
    }
    l.line = u32_of(a[1]);
    l.column = u32_of(a[2]);
    l.begin = u32_of(a[3]);
    l.end = u32_of(a[4]);
    if (l.file && (l.begin > l.end || l.end > l.file->text().size())) throw Malformed();
    return l;
  }
  std::vector<std::string> strings(const Json& j) const {
    std::vector<std::string> out;
    for (const Json& s : array_of(j)) out.push_back(string_of(s));
    return out;
  }
  std::vector<DiagnosticNote> notes(const Json& j) const {
    std::vector<DiagnosticNote> out;
    for (const Json& n : array_of(j)) {
      DiagnosticNote d;
      d.loc = loc(member(n, "loc"));
      d.message = string_at(n, "message");
      d.kind = static_cast<NoteKind>(int_in(n, "kind", 0, static_cast<int>(NoteKind::Help)));
      d.id = string_at(n, "id");
      out.push_back(std::move(d));
    }
    return out;
  }
  std::vector<Diagnostic> diagnostics(const Json& j) const {
    std::vector<Diagnostic> out;
    for (const Json& x : array_of(j)) {
      Diagnostic d;
      d.severity = static_cast<Severity>(int_in(x, "severity", 0, static_cast<int>(Severity::Error)));
      d.loc = loc(member(x, "loc"));
      d.path = string_at(x, "path");
      d.message = string_at(x, "message");
      d.tag = string_at(x, "tag");
      d.notes = notes(member(x, "notes"));
      out.push_back(std::move(d));
    }
    return out;
  }
  AnalysedObligation obligation(const Json& j) const {
    AnalysedObligation a;
    Obligation& ob = a.ob;
    ob.loc = loc(member(j, "loc"));
    ob.rule = string_at(j, "rule");
    ob.tag = string_at(j, "tag");
    ob.status = static_cast<Status>(int_in(j, "status", 0, static_cast<int>(Status::Deferred)));
    a.outcome = static_cast<Outcome>(int_in(j, "outcome", 0, static_cast<int>(Outcome::Deferred)));
    auto frozen = std::make_shared<AnalysedObligation::Frozen>();
    frozen->constraint_sexpr = string_at(j, "constraint");
    frozen->static_constraint = string_at(j, "static_constraint");
    frozen->message_template = string_at(j, "message_template");
    frozen->runtime_checkable = bool_at(j, "runtime_checkable");
    // the expression for readers of ob.constraint.expr(); the printers read the frozen text
    std::string error;
    if (CExpr expr = parse_sexpr(frozen->constraint_sexpr, &error)) ob.constraint = BoolTerm(std::move(expr), Pred(true));
    a.frozen = std::move(frozen);
    a.message_text = string_at(j, "message");
    ob.decided_without_z3 = bool_at(j, "decided_without_z3");
    ob.decided_by_witness = bool_at(j, "decided_by_witness");
    a.contexts = static_cast<int>(int_in(j, "contexts", 0, 1'000'000'000));
    a.context_note = string_at(j, "context_note");
    ob.reason = string_at(j, "reason");
    for (const Json& e : array_at(j, "example")) {
      const std::vector<Json>& pair = array_of(e);
      if (pair.size() != 2) throw Malformed();
      ob.example.emplace_back(string_of(pair[0]), int_of(pair[1]));
    }
    for (const Json& s : array_at(j, "slots")) {
      SlotInfo slot;
      slot.slot = static_cast<int>(int_in(s, "slot", -1, 1'000'000));
      slot.description = string_at(s, "description");
      slot.loc = loc(member(s, "loc"));
      ob.slots.push_back(std::move(slot));
    }
    for (const Json& f : array_at(j, "core")) ob.core.push_back({loc(member(f, "loc")), string_at(f, "description")});
    a.notes = notes(member(j, "notes"));
    return a;
  }
};

}  // namespace

std::string serialise_result(const AnalysisResult& r) {
  std::ostringstream out;
  JsonWriter w(out);
  w.begin_object();
  w.field("format", kFormat);
  w.key("obligations").begin_array();
  for (const AnalysedObligation& a : r.obligations) write_obligation(w, a);
  w.end_array();
  w.key("shapes").begin_array();
  for (const ShapeRecord& s : r.shapes) {
    w.begin_object().key("loc");
    write_loc(w, s.loc);
    w.key("shapes");
    write_strings(w, s.shapes);
    w.end_object();
  }
  w.end_array();
  w.key("sites").begin_array();
  for (const SiteSummary& s : r.sites) {
    w.begin_object().key("loc");
    write_loc(w, s.loc);
    w.field("visits", s.visits).field("unresolved", s.unresolved).field("unmodelled", s.unmodelled);
    w.field("not_proven", s.not_proven).field("unknown_rank", s.unknown_rank);
    w.key("rules");
    write_strings(w, s.rules);
    w.key("no_rule");
    write_strings(w, s.no_rule);
    w.field("what", s.what).field("unknown_operand", s.unknown_operand);
    w.end_object();
  }
  w.end_array();
  w.key("internal");
  write_diagnostics(w, r.internal);
  w.key("annotation_problems");
  write_diagnostics(w, r.annotation_problems);
  w.key("advice");
  write_diagnostics(w, r.advice);
  const AnalysisStats& st = r.stats;
  w.key("stats").begin_object();
  w.field("raw_obligations", st.raw_obligations).field("decided_without_z3", st.decided_without_z3);
  w.field("decided_by_witness", st.decided_by_witness).field("z3_checks", st.z3_checks);
  w.field("z3_unknown", st.z3_unknown).field("z3_seconds", st.z3_seconds);
  w.field("solver_cache_hits", st.solver_cache_hits).field("functions_analysed", st.functions_analysed);
  w.field("memo_hits", st.memo_hits).field("budget_exhausted", st.budget_exhausted);
  w.field("module_failures", st.module_failures).field("steps", st.steps);
  w.end_object();
  w.end_object();
  return out.str();
}

std::optional<AnalysisResult> deserialise_result(const std::string& text, const Project& unit) {
  std::string error;
  std::optional<Json> doc = parse_json_text(text, error);
  if (!doc || !doc->is_object()) return std::nullopt;
  Reader rd;
  for (const ProjectModule& m : unit.modules) rd.files.emplace(m.file->path(), m.file.get());
  try {
    const Json& j = *doc;
    if (int_at(j, "format") != kFormat) return std::nullopt;
    AnalysisResult r;
    for (const Json& o : array_at(j, "obligations")) r.obligations.push_back(rd.obligation(o));
    for (std::size_t i = 0; i < r.obligations.size(); ++i) r.obligations[i].ob.id = static_cast<int>(i);
    for (const Json& s : array_at(j, "shapes")) r.shapes.push_back({rd.loc(member(s, "loc")), rd.strings(member(s, "shapes"))});
    for (const Json& x : array_at(j, "sites")) {
      SiteSummary s;
      s.loc = rd.loc(member(x, "loc"));
      s.visits = static_cast<int>(int_in(x, "visits", 0, 2'000'000'000));
      s.unresolved = bool_at(x, "unresolved");
      s.unmodelled = bool_at(x, "unmodelled");
      s.not_proven = bool_at(x, "not_proven");
      s.unknown_rank = bool_at(x, "unknown_rank");
      s.rules = rd.strings(member(x, "rules"));
      s.no_rule = rd.strings(member(x, "no_rule"));
      s.what = string_at(x, "what");
      s.unknown_operand = bool_at(x, "unknown_operand");
      r.sites.push_back(std::move(s));
    }
    r.internal = rd.diagnostics(member(j, "internal"));
    r.annotation_problems = rd.diagnostics(member(j, "annotation_problems"));
    r.advice = rd.diagnostics(member(j, "advice"));
    const Json& st = member(j, "stats");
    r.stats.raw_obligations = u64_at(st, "raw_obligations");
    r.stats.decided_without_z3 = u64_at(st, "decided_without_z3");
    r.stats.decided_by_witness = u64_at(st, "decided_by_witness");
    r.stats.z3_checks = u64_at(st, "z3_checks");
    r.stats.z3_unknown = u64_at(st, "z3_unknown");
    r.stats.z3_seconds = double_at(st, "z3_seconds");
    r.stats.solver_cache_hits = u64_at(st, "solver_cache_hits");
    r.stats.functions_analysed = u64_at(st, "functions_analysed");
    r.stats.memo_hits = u64_at(st, "memo_hits");
    r.stats.budget_exhausted = u64_at(st, "budget_exhausted");
    r.stats.module_failures = u64_at(st, "module_failures");
    r.stats.steps = u64_at(st, "steps");
    return r;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace gshape::gradual
