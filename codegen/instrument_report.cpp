#include "codegen/instrument_report.h"

#include <map>
#include <sstream>

#include "frontend/json_writer.h"
#include "gshape_version.h"

namespace gshape::codegen {

namespace {

void write_outcome_fields(JsonWriter& json, const CheckOutcome* outcome) {
  if (!outcome) {
    json.field("runtime_check", "not_in_plan");
    json.key("runtime_site").null();
    json.field("reason", "the obligation was not handed to the rewriter");
    return;
  }
  json.field("runtime_check", outcome->instrumented ? "inserted" : "not_instrumentable");
  json.key("runtime_site");
  if (outcome->instrumented) {
    json.value(outcome->runtime_site);
  } else {
    json.null();
  }
  json.field("reason", outcome->reason);
}

}  // namespace

std::string render_instrument_report(const TreeResult& tree, const std::vector<gradual::Obligation>& obligations,
                                     const TreeOptions& options) {
  std::map<int, const CheckOutcome*> outcome_of;
  int inserted = 0, not_instrumentable = 0, sites = 0, sites_not_instrumentable = 0, instrumented_files = 0,
      unparsed = 0;
  for (const PythonFileSummary& file : tree.python_files) {
    sites += file.sites;
    for (const SiteOutcome& s : file.site_outcomes)
      if (!s.instrumented) ++sites_not_instrumentable;
    if (file.status == PythonFileSummary::Status::Instrumented) ++instrumented_files;
    if (file.status == PythonFileSummary::Status::NotParsed) ++unparsed;
    for (const CheckOutcome& o : file.outcomes)
      if (o.obligation_id >= 0) outcome_of.emplace(o.obligation_id, &o);
  }
  // per obligation that needs a run-time check: whether its site got one
  int proven = 0, refuted = 0, deferred = 0;
  for (const gradual::Obligation& ob : obligations) {
    switch (ob.status) {
      case gradual::Status::Proven: ++proven; continue;
      case gradual::Status::Refuted: ++refuted; break;
      case gradual::Status::Deferred: ++deferred; break;
    }
    auto it = outcome_of.find(ob.id);
    (it != outcome_of.end() && it->second->instrumented ? inserted : not_instrumentable)++;
  }

  std::ostringstream text;
  JsonWriter json(text, true);
  json.begin_object();
  json.field("format", kReportFormat);
  json.field("version", kReportVersion);
  json.field("gshape_version", GSHAPE_VERSION);
  json.field("input", options.input);
  json.field("output", options.output);

  json.key("summary").begin_object();
  json.field("python_files", static_cast<uint64_t>(tree.python_files.size()));
  json.field("instrumented_files", instrumented_files);
  json.field("not_parsed_files", unparsed);
  json.field("other_files_copied", static_cast<uint64_t>(tree.copied_files));
  json.field("obligations", static_cast<uint64_t>(obligations.size()));
  json.field("proven", proven);
  json.field("refuted", refuted);
  json.field("deferred", deferred);
  json.field("sites_checked", sites);
  json.field("sites_not_instrumentable", sites_not_instrumentable);
  json.field("checks_inserted", inserted);
  json.field("not_instrumentable", not_instrumentable);
  json.end_object();

  json.key("files").begin_array();
  for (const PythonFileSummary& file : tree.python_files) {
    json.begin_object();
    json.field("path", file.path);
    json.field("output", file.relative);
    json.field("status", python_file_status_name(file.status));
    json.field("sites_checked", file.sites);
    if (!file.problem.empty()) json.field("problem", file.problem);
    json.key("sites").begin_array();
    for (const SiteOutcome& s : file.site_outcomes) {
      json.begin_object();
      json.field("line", static_cast<uint64_t>(s.line));
      json.field("column", static_cast<uint64_t>(s.col));
      json.field("rule", s.rule);
      json.field("runtime_check", s.instrumented ? "inserted" : "not_instrumentable");
      json.key("runtime_site");
      if (s.instrumented) {
        json.value(s.runtime_site);
      } else {
        json.null();
      }
      json.field("why", s.why);
      json.field("problem", s.problem);
      json.field("obligations", static_cast<uint64_t>(s.obligations));
      json.end_object();
    }
    json.end_array();
    json.key("outcomes").begin_array();
    for (const CheckOutcome& o : file.outcomes) {
      json.begin_object();
      json.field("obligation", o.obligation_id);
      json.field("line", static_cast<uint64_t>(o.line));
      json.field("column", static_cast<uint64_t>(o.col));
      json.field("status", check_status_name(o.status));
      write_outcome_fields(json, &o);
      json.end_object();
    }
    json.end_array();
    json.end_object();
  }
  json.end_array();

  json.key("not_parsed").begin_array();
  for (const PythonFileSummary& file : tree.python_files) {
    if (file.status == PythonFileSummary::Status::NotParsed) json.value(file.path);
  }
  json.end_array();

  json.key("obligations").begin_array();
  for (const gradual::Obligation& ob : obligations) {
    json.begin_object();
    json.key("obligation");
    gradual::write_json(json, ob);
    if (ob.status == gradual::Status::Proven) {
      json.field("runtime_check", "not_needed");
      json.key("runtime_site").null();
      json.field("reason", "proven statically");
    } else {
      auto it = outcome_of.find(ob.id);
      write_outcome_fields(json, it == outcome_of.end() ? nullptr : it->second);
    }
    json.end_object();
  }
  json.end_array();

  json.key("errors").begin_array();
  for (const std::string& e : tree.errors) json.value(e);
  json.end_array();
  json.end_object();
  text << '\n';
  return text.str();
}

}  // namespace gshape::codegen
