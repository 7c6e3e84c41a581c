// The analysis driver: runs the interpreter over the project, merges the
// obligations per site and tag, and turns errors and warnings into
// diagnostics with notes.
#include "gradual/analysis.h"
#include "gradual/annotation_syntax.h"
#include "gradual/signature_inference.h"
#include "gradual/witness.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <iterator>
#include <memory>
#include <optional>
#include <map>
#include <set>
#include <tuple>
#include <type_traits>
#include <vector>

#include "frontend/parallel_for.h"
#include "gradual/analysis_merge.h"
#include "gradual/interp.h"

namespace gshape::gradual {

const char* outcome_name(Outcome o) {
  switch (o) {
    case Outcome::Proven: return "proven";
    case Outcome::Error: return "error";
    case Outcome::Warning: return "warning";
    case Outcome::Deferred: return "deferred";
  }
  return "?";
}

std::size_t AnalysisResult::count(Outcome o) const {
  return static_cast<std::size_t>(std::count_if(obligations.begin(), obligations.end(),
                                                [o](const AnalysedObligation& a) { return a.outcome == o; }));
}

std::vector<Obligation> AnalysisResult::plain_obligations() const {
  std::vector<Obligation> out;
  out.reserve(obligations.size());
  for (const AnalysedObligation& a : obligations) out.push_back(a.ob);
  return out;
}

namespace {

// The requirements over the arguments alone: each an obligation not proven
// whose condition reads only argument symbols (--args=symbolic).
// Read from the obligations of each context (before merging: a site reached
// with several layers has one requirement per layer).
std::vector<AnalysisResult::Precondition> preconditions_of(const std::vector<Obligation>& obligations,
                                                           const std::vector<AnalysisResult::ArgumentSymbol>& args,
                                                           const std::string& command) {
  std::map<const TermNode*, const AnalysisResult::ArgumentSymbol*> by_node;
  for (const auto& a : args) by_node[a.symbol.node()] = &a;
  std::vector<AnalysisResult::Precondition> out;
  std::set<std::pair<std::string, std::string>> seen;  // (condition, place)
  for (const Obligation& ob : obligations) {
    if (ob.status == Status::Proven) continue;
    const Pred& p = ob.constraint.pred();
    std::vector<Dim> symbols = symbols_of(p.node());
    if (symbols.empty()) continue;
    bool only_args = true;
    for (const Dim& s : symbols) only_args = only_args && by_node.count(s.node());
    if (!only_args) continue;
    std::string place = ob.loc.valid() ? ob.loc.file->path() + ":" + std::to_string(ob.loc.line) : "";
    if (!seen.insert({p.str(), place}).second) continue;
    AnalysisResult::Precondition pre;
    pre.condition = p.str();
    pre.raw = pre.condition;
    pre.pred = p;
    pre.loc = ob.loc;
    pre.tag = ob.tag;
    pre.rule = ob.rule;
    pre.message = ob.render_message();
    pre.refuted = ob.status == Status::Refuted;
    pre.command = command;
    if (!ob.example.empty()) pre.counterexample = counterexample_words(ob.example, args, command);
    out.push_back(std::move(pre));
  }
  return out;
}

// What the analysis could not check statically, counted from the sites.
void fill_coverage(AnalysisResult& result) {
  result.coverage = {};
  for (const SiteSummary& s : result.sites) {
    if (s.not_analysed) {
      ++result.coverage.not_analysed;
      continue;
    }
    for (const std::string& name : s.no_rule) ++result.coverage.no_rule[name];
    if (s.compiled_visits > 0 && s.needs_check()) ++result.coverage.torchscript;  // no run-time check either
    else if (s.partial_visits > 0 && s.needs_check()) ++result.coverage.through_partial;
    else if (s.hooked_visits > 0 && s.needs_check()) ++result.coverage.hooked;
    else if (s.unresolved) {
      ++(s.unknown_operand ? result.coverage.unknown_operands : result.coverage.unresolved_calls);
      std::size_t close = s.what.find('`', 1);  // "`text` is not known": the callee as the user wrote it
      if (!s.unknown_operand && !s.what.empty() && s.what[0] == '`' && close != std::string::npos)
        ++result.coverage.unresolved_callees[s.what.substr(1, close - 1)];
    } else if (s.unmodelled) ++result.coverage.unmodelled;
    else if (s.unknown_rank && !s.not_proven) ++result.coverage.unknown_ranks;
  }
}

}  // namespace

std::string counterexample_words(const std::vector<std::pair<std::string, int64_t>>& example,
                                 const std::vector<AnalysisResult::ArgumentSymbol>& args, const std::string& command) {
  std::string out;
  auto add = [&](const std::string& w) { out += (out.empty() ? "" : " ") + w; };
  auto words_of = [&](const std::string& which) {
    for (const auto& s : args) {
      if (s.command != which) continue;
      std::optional<int64_t> value;
      for (const auto& [name, v] : example)
        if (name == s.dest) value = v;
      if (!value && !s.required) continue;
      std::string word = std::to_string(value.value_or(1));
      add(s.flag.empty() ? word : s.flag + " " + word);
    }
  };
  words_of("");
  if (!command.empty() && command != kNoSubcommand) {
    add(command);
    words_of(command);
  }
  return out;
}

namespace {

AnalysisResult analyse_whole(const Project& project, const AnalysisOptions& options) {
  auto start = std::chrono::steady_clock::now();
  AnalysisResult result;
  interp::Interpreter in(project, options);
  try {
    in.run();
  } catch (const std::exception& e) {
    result.internal.push_back({Severity::Note, {}, {}, std::string("shape analysis stopped: ") + e.what(), {}, {}});
  }

  for (const ProjectModule& m : project.modules) {
    if (!m.ir) continue;
    for (auto& [loc, problem] : annotated_statements(*m.ir).problems)
      result.annotation_problems.push_back({Severity::Warning, loc, {}, problem, {}, {}});
  }

  if (options.record_signatures) {
    for (const auto& [def, calls] : in.call_samples()) {
      if (!in.followed_every_call(def)) continue;
      std::vector<SignatureSample> samples;
      for (const auto& c : calls) samples.push_back({c.params, c.result});
      InferredSignature sig = infer_signature(*def, samples);
      bool any = sig.returns.has_value();
      for (const auto& p : sig.params) any = any || p.has_value();
      if (any) result.signatures.push_back(std::move(sig));
    }
    std::sort(result.signatures.begin(), result.signatures.end(), [](const InferredSignature& a, const InferredSignature& b) {
      return std::make_tuple(a.def->loc.file->path(), a.def->loc.begin) < std::make_tuple(b.def->loc.file->path(), b.def->loc.begin);
    });
  }

  std::vector<Obligation>& raw = in.raw_obligations();
  const std::vector<interp::RawInfo>& info = in.raw_info();
  const std::vector<interp::Context>& contexts = in.contexts();
  std::vector<RawObligation> merged_input;
  merged_input.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    RawObligation r;
    r.ob = &raw[i];
    if (i < info.size()) {
      r.evaluation = info[i].evaluation;
      r.uncalled = info[i].uncalled;
      r.uncalled_root = info[i].uncalled_root;
      r.uncalled_root_loc = info[i].uncalled_root_loc;
      r.notes = &info[i].notes;
      r.handled_by = info[i].handled_by;
      r.handled_what = info[i].handled_what;
      r.in_handler = info[i].in_handler;
      const interp::Context& c = contexts[static_cast<std::size_t>(info[i].context)];
      if (c.kind == interp::Context::Kind::LastBatch) {
        r.last_batch = true;
        r.context_note = c.note;
        r.context_detail = c.detail;
        r.context_loc = c.loader_loc;
      }
    }
    merged_input.push_back(r);
  }
  // proofs skipped where an earlier analysis of the site deferred the same
  // check: decided now, under the facts they had, wherever the merge could
  // read them (deciding one may make another matter)
  for (std::vector<std::size_t> needed; !(needed = skipped_proofs_that_matter(merged_input)).empty();)
    for (std::size_t i : needed) in.resolve_skipped(i);
  for (const Obligation& ob : raw) {
    if (ob.decided_without_z3) ++result.stats.decided_without_z3;
    if (ob.decided_by_witness) ++result.stats.decided_by_witness;
  }
  // The raw obligations are read after the merge only for --args=symbolic's
  // preconditions: otherwise the merged ones are moved out of them.
  const std::size_t raw_count = raw.size();
  std::optional<std::vector<AnalysedObligation>> merged;
  if (!options.symbolic_args) merged = merge_obligations_spending(merged_input, raw);
  if (merged) {
    // spent: freed before the rest of the result is built
    std::vector<RawObligation>().swap(merged_input);
    std::vector<Obligation>().swap(raw);
  } else {
    merged = merge_obligations(merged_input);
    // (never expected: a skipped proof merged as the one printed; then every one is decided)
    if (std::any_of(merged->begin(), merged->end(), [](const AnalysedObligation& a) { return a.ob.proof_skipped; })) {
      for (std::size_t i = 0; i < raw.size(); ++i) in.resolve_skipped(i);
      merged = merge_obligations(merged_input);
    }
  }
  result.obligations = std::move(*merged);
  merged.reset();
  // the cores of the proofs printed, one Z3 check each (docs/gradual.md)
  for (AnalysedObligation& a : result.obligations)
    if (a.ob.pending_core) {
      if (a.ob.status == Status::Proven) a.ob.core = in.core_of(*a.ob.pending_core);
      a.ob.pending_core.reset();
    }
  if (options.symbolic_args) {
    result.argument_symbols = in.argument_symbols();
    result.raw_preconditions = preconditions_of(raw, result.argument_symbols, options.symbolic_command);
    result.preconditions = simplify_preconditions(result.raw_preconditions, result.argument_symbols);
    result.symbolic_commands = in.symbolic_commands();
    result.symbolic_inputs = in.symbolic_inputs();
  }

  for (const auto& [expr, shapes] : in.shapes()) result.shapes.push_back({expr->loc, shapes});
  std::stable_sort(result.shapes.begin(), result.shapes.end(), [](const ShapeRecord& a, const ShapeRecord& b) {
    static const std::string kNoPath;
    const std::string& pa = a.loc.file ? a.loc.file->path() : kNoPath;
    const std::string& pb = b.loc.file ? b.loc.file->path() : kNoPath;
    return std::tie(pa, a.loc.begin, b.loc.end) < std::tie(pb, b.loc.begin, a.loc.end);
  });

  for (const auto& [node, summary] : in.site_summaries())
    if (summary.loc.valid()) result.sites.push_back(summary);
  std::stable_sort(result.sites.begin(), result.sites.end(), [](const SiteSummary& a, const SiteSummary& b) {
    const std::string& pa = a.loc.file->path();
    const std::string& pb = b.loc.file->path();
    return std::tie(pa, a.loc.begin, b.loc.end) < std::tie(pb, b.loc.begin, a.loc.end);
  });
  fill_coverage(result);

  for (Diagnostic& d : in.internal()) result.internal.push_back(std::move(d));
  for (Diagnostic& d : in.launch_errors()) result.launch_errors.push_back(std::move(d));
  for (Diagnostic& d : in.advice()) result.advice.push_back(std::move(d));
  result.launch_values = in.launch_values();
  result.launch_inputs = in.launch_inputs();
  AnalysisStats& st = result.stats;
  const AnalysisStats& is = in.stats();
  st.raw_obligations = raw_count;
  st.functions_analysed = is.functions_analysed;
  st.memo_hits = is.memo_hits;
  st.budget_exhausted = is.budget_exhausted;
  st.module_failures = is.module_failures;
  st.steps = in.steps_;
  SolverStats solver = in.solver_stats();
  st.z3_checks = solver.z3_checks;
  st.z3_seconds = solver.z3_seconds;
  st.z3_unknown = solver.z3_unknown;
  st.solver_cache_hits = solver.cache_hits;
  st.z3_profile = solver.profile;
  for (const auto& [file, time] : solver.by_file) {
    AnalysisStats::FileSolverTime& t = st.z3_by_file[file ? file->path() : std::string()];
    t.seconds += time.seconds;
    t.checks += time.checks;
  }
  st.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // --args=symbolic with sub-commands: which one runs is unknown here, so
  // this analysis took both sides of every test of it, and its requirements
  // may hold for some sub-commands only. Each sub-command (and no
  // sub-command, when none is required) is analysed as the one that runs:
  // a precondition every one of those analyses states holds whichever runs;
  // another is stated for the sub-commands whose analysis states it ("with
  // train: ..."). This analysis' own are not stated.
  if (options.symbolic_args && options.symbolic_command.empty() && !result.symbolic_commands.empty()) {
    std::vector<AnalysisResult> runs;
    for (const std::string& command : result.symbolic_commands) {
      AnalysisOptions o = options;
      o.symbolic_command = command;
      o.record_shapes = false;
      o.record_signatures = false;
      runs.push_back(analyse_whole(project, o));
      const AnalysisResult& r = runs.back();
      for (const auto& a : r.argument_symbols)
        if (a.command == command) result.argument_symbols.push_back(a);
      for (const std::string& f : r.symbolic_inputs)
        if (std::find(result.symbolic_inputs.begin(), result.symbolic_inputs.end(), f) == result.symbolic_inputs.end())
          result.symbolic_inputs.push_back(f);
    }
    // read before simplification: each analysis drops what its other
    // preconditions imply, which differs from one sub-command to another
    auto key = [](const AnalysisResult::Precondition& p) {
      return p.raw + "@" + (p.loc.valid() ? p.loc.file->path() : std::string()) + ":" + std::to_string(p.loc.line);
    };
    std::map<std::string, std::size_t> stated_by;  // key → how many analyses state it
    for (const AnalysisResult& r : runs) {
      std::set<std::string> keys;
      for (const auto& p : r.raw_preconditions) keys.insert(key(p));
      for (const std::string& k : keys) ++stated_by[k];
    }
    // those of every analysis, simplified together (they hold whichever runs;
    // counterexamples name the first sub-command analysed)
    std::vector<AnalysisResult::Precondition> common_raw, own;
    std::set<std::string> done;
    for (const auto& p : runs.front().raw_preconditions)
      if (stated_by[key(p)] == runs.size() && done.insert(key(p)).second) common_raw.push_back(p);
    std::vector<AnalysisResult::Precondition> common =
        simplify_preconditions(std::move(common_raw), runs.front().argument_symbols);
    for (auto& p : common) p.command.clear();
    for (AnalysisResult& r : runs)
      for (auto& p : r.preconditions)
        if (stated_by[key(p)] < runs.size()) own.push_back(std::move(p));
    result.preconditions = std::move(common);
    for (auto& p : own) result.preconditions.push_back(std::move(p));
  }
  return result;
}

}  // namespace

// ---------------------------------------------------------------- analysis units

namespace {

// The name the interpreter gives a module (interp_core.cpp): its dotted
// name, or for a lone file its stem.
std::string interpreter_name(const ProjectModule& m) {
  std::string name = m.file->module_name();
  if (!name.empty()) return name;
  std::string path = m.file->path();
  std::size_t slash = path.find_last_of('/');
  std::string stem = slash == std::string::npos ? path : path.substr(slash + 1);
  if (stem.size() > 3 && stem.substr(stem.size() - 3) == ".py") stem.resize(stem.size() - 3);
  return stem;
}

struct UnionFind {
  std::vector<std::size_t> parent;
  explicit UnionFind(std::size_t n) : parent(n) {
    for (std::size_t i = 0; i < n; ++i) parent[i] = i;
  }
  std::size_t find(std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  }
  void join(std::size_t a, std::size_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// A Project holding some of another's modules without owning them: the
// interpreter takes a Project, and a unit's locations must point into the
// same SourceFile and IR objects as the whole project's. The borrowed
// pointers are released, never deleted.
class UnitView {
 public:
  UnitView(const Project& whole, const std::vector<std::size_t>& unit) {
    std::map<std::size_t, std::size_t> local;  // whole index → unit index
    for (std::size_t i : unit) local.emplace(i, local.size());
    for (std::size_t i : unit) {
      const ProjectModule& w = whole.modules[i];
      ProjectModule m;
      m.file.reset(const_cast<SourceFile*>(w.file.get()));
      m.ir.reset(const_cast<ir::Module*>(w.ir.get()));
      m.deferred = w.deferred;  // not parsed yet (its unit's key counts it as parsed)
      m.root = w.root;
      for (std::size_t j : w.imports)
        if (auto it = local.find(j); it != local.end()) m.imports.push_back(it->second);
      view_.modules.push_back(std::move(m));
      view_.all_files.push_back(w.file->path());
    }
    for (const std::vector<std::size_t>& scc : whole.analysis_order) {
      std::vector<std::size_t> mine;
      for (std::size_t i : scc)
        if (auto it = local.find(i); it != local.end()) mine.push_back(it->second);
      if (!mine.empty()) view_.analysis_order.push_back(std::move(mine));
    }
  }
  ~UnitView() {
    for (ProjectModule& m : view_.modules) {
      static_cast<void>(m.file.release());
      static_cast<void>(m.ir.release());
    }
  }
  UnitView(const UnitView&) = delete;
  UnitView& operator=(const UnitView&) = delete;
  const Project& project() const { return view_; }

 private:
  Project view_;
};

// Everything a unit's analysis reads, as text: the options, and each
// module's path (as messages print it), name, root and source.
std::string unit_key(const Project& unit, const AnalysisOptions& o) {
  std::string key = "gshape-analysis-unit 1\n";
  key += "options " + std::to_string(o.solver_rlimit) + " " + std::to_string(o.max_call_depth) + " " +
         std::to_string(o.max_unroll) + " " + std::to_string(o.function_budget) + " " +
         std::to_string(o.module_budget) + " " + std::to_string(o.record_shapes) + " " +
         std::to_string(o.analyse_uncalled) + " " + std::to_string(o.uncalled_rlimit) + " " +
         std::to_string(o.witnesses) + " " + std::to_string(o.any_command_line) + "\n";
  for (const ProjectModule& m : unit.modules) {
    key += "module " + std::to_string(m.file->path().size()) + " " + m.file->path() + " " + m.file->module_name() +
           " " + std::to_string(m.file->is_package_init()) + " " + std::to_string(m.root.size()) + " " + m.root +
           " " + std::to_string(m.ir != nullptr || m.deferred) + " " + std::to_string(m.file->text().size()) + "\n";
    key += m.file->text();
    key += "\n";
  }
  return key;
}

// The units' results as one: obligations, sites and shapes sorted as one
// analysis sorts them (units partition the files, so no two units' items
// tie), diagnostics in unit order, statistics summed.
AnalysisResult merge_units(std::vector<AnalysisResult>& parts) {
  AnalysisResult out;
  // Appends `from` to `to`: the first part's vector is taken whole, and room
  // for every part is made once (an obligation is a large object: moving
  // tens of thousands of them again at each growth of the vector was a fifth
  // of a re-check with nothing changed).
  auto append = [&parts](auto& to, auto& from, auto member) {
    if (to.empty()) {
      std::size_t total = 0;
      for (AnalysisResult& p : parts) total += (p.*member).size();
      to = std::move(from);
      to.reserve(total);
      return;
    }
    to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
  };
  for (AnalysisResult& r : parts) {
    append(out.obligations, r.obligations, &AnalysisResult::obligations);
    append(out.shapes, r.shapes, &AnalysisResult::shapes);
    append(out.sites, r.sites, &AnalysisResult::sites);
    append(out.internal, r.internal, &AnalysisResult::internal);
    append(out.annotation_problems, r.annotation_problems, &AnalysisResult::annotation_problems);
    append(out.advice, r.advice, &AnalysisResult::advice);
    AnalysisStats& st = out.stats;
    const AnalysisStats& is = r.stats;
    st.raw_obligations += is.raw_obligations;
    st.decided_without_z3 += is.decided_without_z3;
    st.decided_by_witness += is.decided_by_witness;
    st.z3_checks += is.z3_checks;
    st.z3_unknown += is.z3_unknown;
    st.z3_seconds += is.z3_seconds;
    st.solver_cache_hits += is.solver_cache_hits;
    st.z3_profile.merge(is.z3_profile);
    st.functions_analysed += is.functions_analysed;
    st.memo_hits += is.memo_hits;
    st.budget_exhausted += is.budget_exhausted;
    st.module_failures += is.module_failures;
    st.steps += is.steps;
    for (const auto& [path, time] : is.z3_by_file) {
      AnalysisStats::FileSolverTime& t = st.z3_by_file[path];
      t.seconds += time.seconds;
      t.checks += time.checks;
    }
  }
  // (paths by reference: a sort of tens of thousands of items compared
  // copies of them, a tenth of a re-check's time with nothing changed)
  static const std::string kNoPath;
  auto path_of = [](const SourceLoc& l) -> const std::string& { return l.file ? l.file->path() : kNoPath; };
  // A stable sort of what is sorted already changes nothing: skipped (one
  // unit's items, read back from the cache, most often are), since moving
  // tens of thousands of obligations through a buffer is most of a merge.
  // Otherwise the items are ordered by a stable sort of their indices and
  // then moved once each (a stable sort of the items themselves moved each
  // obligation, a large object, about log n times: a sixth of a check of
  // vit-pytorch's 64 cached units with nothing changed). The same order.
  auto sort = [](auto& items, auto less) {
    if (std::is_sorted(items.begin(), items.end(), less)) return;
    std::vector<std::size_t> order(items.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return less(items[a], items[b]); });
    std::remove_reference_t<decltype(items)> sorted;
    sorted.reserve(items.size());
    for (std::size_t i : order) sorted.push_back(std::move(items[i]));
    items = std::move(sorted);
  };
  sort(out.obligations, [&](const AnalysedObligation& a, const AnalysedObligation& b) {
    const SourceLoc& la = a.ob.loc;
    const SourceLoc& lb = b.ob.loc;
    return std::tie(path_of(la), la.line, la.column, a.ob.tag) < std::tie(path_of(lb), lb.line, lb.column, b.ob.tag);
  });
  for (std::size_t i = 0; i < out.obligations.size(); ++i) out.obligations[i].ob.id = static_cast<int>(i);
  sort(out.shapes, [&](const ShapeRecord& a, const ShapeRecord& b) {
    return std::tie(path_of(a.loc), a.loc.begin, b.loc.end) < std::tie(path_of(b.loc), b.loc.begin, a.loc.end);
  });
  sort(out.sites, [&](const SiteSummary& a, const SiteSummary& b) {
    return std::tie(path_of(a.loc), a.loc.begin, b.loc.end) < std::tie(path_of(b.loc), b.loc.begin, a.loc.end);
  });
  fill_coverage(out);
  return out;
}

}  // namespace

std::vector<std::vector<std::size_t>> analysis_units(const Project& project) {
  const std::size_t n = project.modules.size();
  UnionFind uf(n);
  std::map<std::string, std::size_t> first_of_name;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j : project.modules[i].imports)
      if (j < n) uf.join(i, j);
    std::string name = interpreter_name(project.modules[i]);
    auto [it, fresh] = first_of_name.emplace(name, i);
    if (!fresh) uf.join(i, it->second);
  }
  std::map<std::size_t, std::vector<std::size_t>> by_root;
  for (std::size_t i = 0; i < n; ++i) by_root[uf.find(i)].push_back(i);
  std::vector<std::vector<std::size_t>> units;
  for (auto& [root, members] : by_root) units.push_back(std::move(members));  // roots are the smallest index
  return units;
}

bool splits_into_units(const AnalysisOptions& options) {
  return !options.launch_args && !options.symbolic_args && !options.record_signatures;
}

AnalysisResult analyse_project(const Project& project, const AnalysisOptions& options, UnitCache* cache) {
  if (!splits_into_units(options)) {
    std::vector<std::size_t> all(project.modules.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    DiagnosticSink parse_problems;
    parse_deferred(project, all, parse_problems, options.threads);
    AnalysisResult r = analyse_whole(project, options);
    r.internal.insert(r.internal.begin(), parse_problems.all().begin(), parse_problems.all().end());
    r.stats.units = r.stats.units_analysed = 1;
    return r;
  }
  auto start = std::chrono::steady_clock::now();
  std::vector<std::vector<std::size_t>> units = analysis_units(project);
  std::vector<std::unique_ptr<UnitView>> views;
  std::vector<std::string> keys(units.size());
  std::vector<std::optional<AnalysisResult>> parts(units.size());
  std::vector<std::size_t> todo;  // the units to analyse
  views.reserve(units.size());
  uint64_t cached = 0;
  for (std::size_t u = 0; u < units.size(); ++u) {
    views.push_back(std::make_unique<UnitView>(project, units[u]));
    if (cache) {
      keys[u] = unit_key(views[u]->project(), options);
      if (std::optional<AnalysisResult> hit = cache->load(keys[u], views[u]->project())) {
        parts[u] = std::move(hit);
        ++cached;
        continue;
      }
    }
    todo.push_back(u);
  }
  // The units left are analysed on up to `threads` threads, the largest
  // first (so that one large unit does not start last). A unit's result does
  // not depend on which thread analyses it or on what the others do: each
  // has its own interpreter and solver, and the terms they share (the
  // process-wide table, dim.h) are only symbol-free constants, whose
  // creation order no unit's term ordering reads. Each result goes to its
  // unit's place, so the merge below sees the same results in the same
  // order for any thread count.
  // The modules of the units left that load_project did not parse (their
  // import names came from the file facts cache) are parsed now, and their
  // views made again to hold the IR.
  DiagnosticSink parse_problems;
  {
    std::vector<std::size_t> to_parse;
    for (std::size_t u : todo) to_parse.insert(to_parse.end(), units[u].begin(), units[u].end());
    if (parse_deferred(project, to_parse, parse_problems, options.threads) > 0)
      for (std::size_t u : todo) views[u] = std::make_unique<UnitView>(project, units[u]);
  }
  std::vector<std::size_t> bytes(units.size(), 0);
  for (std::size_t u : todo)
    for (const ProjectModule& m : views[u]->project().modules) bytes[u] += m.file->text().size();
  std::stable_sort(todo.begin(), todo.end(), [&](std::size_t a, std::size_t b) { return bytes[a] > bytes[b]; });
  std::vector<std::exception_ptr> errors(todo.size());
  unsigned threads = options.threads ? options.threads : default_thread_count();
  parallel_for(
      todo.size(),
      [&](std::size_t k) {
        try {
          parts[todo[k]] = analyse_whole(views[todo[k]]->project(), options);
        } catch (...) {
          errors[k] = std::current_exception();
        }
      },
      threads);
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
  if (cache) {
    std::sort(todo.begin(), todo.end());
    for (std::size_t u : todo) cache->store(keys[u], *parts[u]);
  }
  std::vector<AnalysisResult> results;
  results.reserve(parts.size());
  for (std::optional<AnalysisResult>& r : parts) results.push_back(std::move(*r));
  AnalysisResult result = merge_units(results);
  result.internal.insert(result.internal.begin(), parse_problems.all().begin(), parse_problems.all().end());
  result.stats.units = units.size();
  result.stats.units_analysed = todo.size();
  result.stats.units_cached = cached;
  result.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

std::vector<Diagnostic> diagnostics_of(const AnalysisResult& result) {
  std::vector<Diagnostic> out;
  // one diagnostic per site, tag and severity: a second failing axis of the
  // same constraint says nothing new
  std::set<std::tuple<const SourceFile*, uint32_t, uint32_t, std::string, int>> seen;
  for (const AnalysedObligation& a : result.obligations) {
    if (a.outcome != Outcome::Error && a.outcome != Outcome::Warning) continue;
    Severity severity = a.outcome == Outcome::Error ? Severity::Error : Severity::Warning;
    if (!seen.insert({a.ob.loc.file, a.ob.loc.begin, a.ob.loc.end, a.ob.tag, static_cast<int>(severity)}).second) continue;
    Diagnostic d;
    d.severity = severity;
    d.loc = a.ob.loc;
    d.message = a.message();
    if (!result.launch_values.empty() && a.message_text.empty()) {
      Assignment values;
      for (const auto& [sym, v] : result.launch_values) values.push_back({sym.node(), v});
      d.message = a.ob.message.render_static([&](const Dim& dim) {
        std::optional<int64_t> v = evaluate(dim.node(), values);
        return v ? std::to_string(*v) : dim.str();
      });
    }
    if (!a.context_note.empty()) d.message += "; " + a.context_note;
    d.tag = a.ob.tag;
    std::set<std::tuple<const SourceFile*, uint32_t, std::string>> note_seen;
    for (const DiagnosticNote& n : a.notes) {
      if (!note_seen.insert({n.loc.file, n.loc.begin, n.message}).second) continue;
      d.notes.push_back(n);
    }
    out.push_back(std::move(d));
  }
  out.insert(out.end(), result.annotation_problems.begin(), result.annotation_problems.end());
  out.insert(out.end(), result.launch_errors.begin(), result.launch_errors.end());
  out.insert(out.end(), result.advice.begin(), result.advice.end());
  return out;
}

}  // namespace gshape::gradual
