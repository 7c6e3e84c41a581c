#include "cli/review.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <tuple>

#include "cli/constraint_text.h"
#include "cli/review_scopes.h"
#include "codegen/nesting_budget.h"
#include "codegen/plan.h"
#include "codegen/rewriter.h"

namespace gshape::cli {

namespace fs = std::filesystem;

std::string ReviewEntry::example_text() const {
  std::string s;
  for (const auto& [name, value] : example) s += (s.empty() ? "" : ", ") + name + " = " + std::to_string(value);
  return s;
}

void FileCounts::add(const ReviewEntry& e) {
  if (e.status == "proven") ++proven;
  if (e.status == "refuted") ++refuted;
  if (e.status == "deferred") ++deferred;
  if (e.outcome == "warning") ++warnings;
  if (e.needs_check() && e.runtime_check != "inserted") ++not_instrumentable;
  if (e.run && e.run->runs > 0) ++ran;
  if (e.run && e.run->failures > 0) ++failed;
}

void FileCounts::add(const FileCounts& o) {
  proven += o.proven;
  refuted += o.refuted;
  deferred += o.deferred;
  warnings += o.warnings;
  not_instrumentable += o.not_instrumentable;
  ran += o.ran;
  failed += o.failed;
}

std::map<std::string, FileCounts> Review::counts_by_file() const {
  std::map<std::string, FileCounts> out;
  for (const ReviewEntry& e : entries) out[e.path].add(e);
  return out;
}

FileCounts Review::totals() const {
  FileCounts t;
  for (const ReviewEntry& e : entries) t.add(e);
  return t;
}

namespace {

void sort_entries(std::vector<ReviewEntry>& entries) {
  std::stable_sort(entries.begin(), entries.end(), [](const ReviewEntry& a, const ReviewEntry& b) {
    return std::tie(a.path, a.line, a.column, a.tag) < std::tie(b.path, b.line, b.column, b.tag);
  });
}

// What the rewriter would do with each obligation id, from an in-memory
// instrumentation of every module (the same plans `gshape instrument` uses).
std::map<int, codegen::CheckOutcome> plan_outcomes(const Project& project, const std::vector<gradual::Obligation>& obligations,
                                                   const std::vector<gradual::SiteSummary>& sites, std::string& notes) {
  std::map<int, codegen::CheckOutcome> out;
  std::vector<codegen::FilePlan> plans = codegen::build_plans(project, obligations, sites);
  std::map<std::string, const codegen::FilePlan*> plan_of;
  for (const codegen::FilePlan& p : plans) plan_of.emplace(p.path, &p);
  for (const ProjectModule& m : project.modules) {
    auto plan = plan_of.find(m.file->path());
    if (plan == plan_of.end() || !m.ir) continue;
    codegen::InstrumentedSource instrumented = codegen::instrument_source(m.file->text(), *m.ir, *plan->second);
    notes += codegen::nesting_notes(m.file->path(), instrumented.site_outcomes);
    for (codegen::CheckOutcome& o : instrumented.outcomes) {
      if (o.obligation_id >= 0) out[o.obligation_id] = std::move(o);
    }
  }
  return out;
}

std::string status_text(gradual::Status s) { return gradual::status_name(s); }

}  // namespace

namespace {

Review build_review(const Project& project, const gradual::AnalysisResult& result,
                    const std::map<int, codegen::CheckOutcome>& outcomes) {
  Review review;
  review.source = "analysis";
  review.python_files = project.all_files.size();
  review.files = project.all_files;
  for (const std::unique_ptr<SourceFile>& f : project.rejected_files) review.unanalysed_files.push_back(f->path());
  for (const std::string& f : project.unreadable_files) review.unanalysed_files.push_back(f);
  for (const std::string& f : project.oversized_files) review.unanalysed_files.push_back(f);
  std::sort(review.unanalysed_files.begin(), review.unanalysed_files.end());
  for (const gradual::AnalysedObligation& a : result.obligations) {
    const gradual::Obligation& ob = a.ob;
    ReviewEntry e;
    e.path = ob.loc.valid() ? ob.loc.file->path() : std::string();
    e.line = ob.loc.line;
    e.column = ob.loc.column;
    e.tag = ob.tag;
    e.rule = ob.rule;
    e.status = status_text(ob.status);
    e.outcome = gradual::outcome_name(a.outcome);
    std::vector<std::string> names;
    for (const gradual::SlotInfo& slot : ob.slots) {
      if (slot.slot < 0) continue;
      if (names.size() <= static_cast<std::size_t>(slot.slot)) names.resize(static_cast<std::size_t>(slot.slot) + 1);
      names[static_cast<std::size_t>(slot.slot)] = slot.description;
    }
    e.constraint = readable_constraint(ob.constraint.expr(), names);
    e.runtime_constraint = ob.constraint_sexpr();
    e.static_constraint = ob.constraint.pred().str();
    e.message = ob.render_message();
    e.reason = ob.reason;
    e.origin = ob.origin;
    e.example = ob.example;
    e.context_note = a.context_note;
    if (ob.status == gradual::Status::Proven) {
      e.runtime_check = "not_needed";
    } else if (auto it = outcomes.find(ob.id); it != outcomes.end()) {
      e.runtime_check = it->second.instrumented ? "inserted" : "not_instrumentable";
      e.runtime_reason = it->second.reason;
    } else {
      e.runtime_check = "not_in_plan";
      e.runtime_reason = "the rewriter got no plan for this file";
    }
    review.entries.push_back(std::move(e));
  }
  sort_entries(review.entries);
  return review;
}

}  // namespace

namespace {

// The note lines of `notes` (codegen::nesting_notes), one per entry.
std::vector<std::string> note_lines(const std::string& notes) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at < notes.size()) {
    std::size_t eol = notes.find('\n', at);
    if (eol == std::string::npos) eol = notes.size();
    if (eol > at) out.push_back(notes.substr(at, eol - at));
    at = eol + 1;
  }
  return out;
}

}  // namespace

Review review_from_analysis(const Project& project, const gradual::AnalysisResult& result) {
  std::vector<gradual::Obligation> plain = result.plain_obligations();
  std::string notes;
  std::map<int, codegen::CheckOutcome> outcomes = plan_outcomes(project, plain, result.sites, notes);
  Review review = build_review(project, result, outcomes);
  review.unchecked_notes = note_lines(notes);
  return review;
}

Review review_from_tree(const Project& project, const gradual::AnalysisResult& result, const codegen::TreeResult& tree) {
  std::map<int, codegen::CheckOutcome> outcomes;
  std::string notes;
  for (const codegen::PythonFileSummary& f : tree.python_files) {
    notes += codegen::nesting_notes(f.path, f.site_outcomes);
    for (const codegen::CheckOutcome& o : f.outcomes) {
      if (o.obligation_id >= 0) outcomes[o.obligation_id] = o;
    }
  }
  Review review = build_review(project, result, outcomes);
  review.unchecked_notes = note_lines(notes);
  return review;
}

void apply_review_settings(Review& review, Suppressions& suppressions, const Settings& settings) {
  for (ReviewEntry& e : review.entries) {
    if (e.needs_check()) e.suppressed = suppressions.suppresses(e.path, e.line, e.tag);
    if (auto it = settings.severity.find(e.tag); it != settings.severity.end()) {
      static const char* names[] = {"error", "warning", "note", "ignore"};
      e.severity = names[static_cast<int>(it->second)];
      if (it->second == SeverityOverride::Ignore && e.needs_check()) e.suppressed = true;
    }
  }
}

std::string review_from_report_json(const Json& report, Review& out) {
  if (report.str("format") != "gshape-instrument-report") {
    return "not a gshape-report.json (its \"format\" is not \"gshape-instrument-report\")";
  }
  const Json* obligations = report.find("obligations");
  if (!obligations || !obligations->is_array()) return "the report has no \"obligations\" list";
  if (const Json* summary = report.find("summary")) out.python_files = static_cast<std::size_t>(summary->integer_of("python_files"));
  if (const Json* files = report.find("files"); files && files->is_array()) {
    for (const Json& f : files->array) {
      out.files.push_back(f.str("path"));
      // the sites left unchecked for their nesting, as the report records them
      std::vector<codegen::SiteOutcome> sites;
      if (const Json* listed = f.find("sites"); listed && listed->is_array()) {
        for (const Json& site : listed->array) {
          codegen::SiteOutcome o;
          o.line = static_cast<uint32_t>(site.integer_of("line"));
          o.problem = site.str("problem");
          o.nested_too_deep = o.problem.rfind(codegen::kNestedTooDeep, 0) == 0;
          sites.push_back(std::move(o));
        }
      }
      for (std::string& line : note_lines(codegen::nesting_notes(f.str("path"), sites))) out.unchecked_notes.push_back(std::move(line));
    }
  }
  if (const Json* unparsed = report.find("not_parsed"); unparsed && unparsed->is_array()) {
    for (const Json& p : unparsed->array) {
      if (p.type == Json::Type::String) out.unanalysed_files.push_back(p.string);
    }
  }
  for (const Json& item : obligations->array) {
    const Json* ob = item.find("obligation");
    if (!ob || !ob->is_object()) return "an entry of \"obligations\" has no \"obligation\" object";
    ReviewEntry e;
    e.path = ob->str("path");
    e.line = static_cast<uint32_t>(ob->integer_of("line"));
    e.column = static_cast<uint32_t>(ob->integer_of("column"));
    e.tag = ob->str("tag");
    e.rule = ob->str("rule");
    e.status = ob->str("status");
    if (e.status != "proven" && e.status != "refuted" && e.status != "deferred") {
      return "obligation at " + e.path + ":" + std::to_string(e.line) + " has an unknown status '" + e.status + "'";
    }
    e.outcome = ob->str("outcome");  // newer reports may carry it
    std::vector<std::string> names;
    if (const Json* slots = ob->find("slots"); slots && slots->is_array()) {
      for (const Json& slot : slots->array) {
        int64_t k = slot.integer_of("slot", -1);
        if (k < 0 || k > 255) continue;
        if (names.size() <= static_cast<std::size_t>(k)) names.resize(static_cast<std::size_t>(k) + 1);
        names[static_cast<std::size_t>(k)] = slot.str("description");
      }
    }
    e.runtime_constraint = ob->str("constraint");
    e.constraint = readable_constraint(e.runtime_constraint, names);
    e.static_constraint = ob->str("static_constraint");
    e.message = ob->str("message");
    e.reason = ob->str("reason");
    e.origin = ob->str("origin");
    if (const Json* example = ob->find("example"); example && example->is_object()) {
      for (const auto& [name, value] : example->object) e.example.emplace_back(name, value.integer);
    }
    e.runtime_check = item.str("runtime_check");
    if (e.runtime_check == "not_instrumentable" || e.runtime_check == "not_in_plan") e.runtime_reason = item.str("reason");
    out.entries.push_back(std::move(e));
  }
  sort_entries(out.entries);
  return {};
}

void attach_functions(const Project& project, Review& review) {
  std::map<std::string, ScopeIndex> scopes;
  for (const ProjectModule& m : project.modules) {
    if (m.file && m.ir) scopes.emplace(m.file->path(), ScopeIndex(*m.ir));
  }
  for (ReviewEntry& e : review.entries) {
    auto it = scopes.find(e.path);
    if (it == scopes.end()) continue;
    if (const Scope* s = it->second.scope_at(e.line)) {
      e.function = s->name;
      e.function_line = s->first_line;
    }
  }
}

namespace {

// Paths in a stats file are as gshape displayed them when it instrumented;
// compare files by their real location when they exist, by text otherwise.
std::string path_key(const std::string& path) {
  std::error_code ec;
  if (!path.empty() && fs::exists(path, ec)) {
    fs::path canonical = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (!ec) return canonical.string();
  }
  return fs::path(path).lexically_normal().string();
}

std::string site_key(const std::string& path, int64_t line, int64_t column) {
  return path_key(path) + ":" + std::to_string(line) + ":" + std::to_string(column);
}

}  // namespace

std::string attach_stats(const Json& stats, const std::string& stats_path, Review& review) {
  if (stats.str("format") != "gshape-runtime-stats") {
    return "not a GSHAPE_STATS file (its \"format\" is not \"gshape-runtime-stats\")";
  }
  const Json* sites = stats.find("sites");
  if (!sites || !sites->is_array()) return "the stats file has no \"sites\" list";
  review.stats_path = stats_path;
  review.stats_checks_enabled = stats.bool_of("checks_enabled", true);

  // Entries that need a check, by path:line:col: a site's check runs the
  // rule, so all obligations of the site share its runs; failures are per tag.
  std::map<std::string, std::vector<ReviewEntry*>> by_key;
  for (ReviewEntry& e : review.entries) {
    if (!e.needs_check()) continue;
    by_key[site_key(e.path, e.line, e.column)].push_back(&e);
  }
  std::set<std::string> known;
  for (const std::string& f : review.files) known.insert(path_key(f));
  for (const ReviewEntry& e : review.entries) known.insert(path_key(e.path));
  for (const Json& c : sites->array) {
    std::string path = c.str("path");
    if (path == "<module calls>") continue;  // checked by the module hook, at no site of the review
    int64_t line = c.integer_of("line"), col = c.integer_of("col");
    auto it = by_key.find(site_key(path, line, col));
    if (it == by_key.end()) {
      // a site with no obligation left to check here (it calls what the
      // analysis could not see), or one of a file this review does not hold
      if (!known.count(path_key(path))) review.unmatched_stats.push_back(path + ":" + std::to_string(line) + ":" + std::to_string(col));
      continue;
    }
    const Json* failed = c.find("failed_tags");
    for (ReviewEntry* e : it->second) {
      RunCounts& counts = e->run ? *e->run : e->run.emplace();
      counts.runs += c.integer_of("runs");
      counts.skipped += c.integer_of("skipped") + c.integer_of("no_rule");
      if (failed && failed->is_object()) {
        auto f = failed->object.find(e->tag);
        if (f != failed->object.end()) counts.failures += f->second.integer;
      }
    }
  }
  return {};
}

}  // namespace gshape::cli
