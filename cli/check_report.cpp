#include "cli/check_report.h"

#include <ostream>

#include "cli/diagnostic_formats.h"
#include "frontend/json_writer.h"
#include "gshape_version.h"

namespace gshape::cli {

using gradual::AnalysedObligation;
using gradual::AnalysisResult;
using gradual::Outcome;

std::string obligation_summary_line(const AnalysisResult& result) {
  std::size_t n = result.obligations.size();
  std::size_t warnings = result.count(Outcome::Warning);
  std::string line = std::to_string(n) + (n == 1 ? " obligation: " : " obligations: ") +
                     std::to_string(result.count(Outcome::Proven)) + " proven, " +
                     std::to_string(result.count(Outcome::Error)) + " refuted, " +
                     std::to_string(result.count(Outcome::Deferred) + warnings) + " deferred";
  if (warnings > 0) line += " (" + std::to_string(warnings) + (warnings == 1 ? " of them a warning)" : " of them warnings)");
  return line;
}

namespace {

std::string plural_of(int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

}  // namespace

std::vector<std::string> coverage_lines(const AnalysisResult& result) {
  const AnalysisResult::Coverage& c = result.coverage;
  std::vector<std::string> out;
  if (!c.no_rule.empty()) {
    // most frequent first, then by name
    std::vector<std::pair<std::string, int>> ops(c.no_rule.begin(), c.no_rule.end());
    std::stable_sort(ops.begin(), ops.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    int total = 0;
    std::string names;
    for (std::size_t i = 0; i < ops.size(); ++i) {
      total += ops[i].second;
      if (i < 8) names += (i ? ", " : "") + ops[i].first + " (" + std::to_string(ops[i].second) + ")";
    }
    if (ops.size() > 8) names += ", and " + std::to_string(ops.size() - 8) + " more";
    out.push_back("not checked: " + plural_of(total, "call", "calls") + " of ops without a rule: " + names);
  }
  // the calls no check covers, and why
  const std::pair<int, std::string> uncovered[] = {
      {c.torchscript, plural_of(c.torchscript, "call or operator", "calls or operators") +
                          " not proven in code compiled by TorchScript (torch.jit.script/trace runs it without Python)"},
      {c.hooked, plural_of(c.hooked, "call", "calls") +
                     " of modules with forward hooks (a check cannot see the input the hooks pass on)"},
      {c.not_analysed, plural_of(c.not_analysed, "match statement", "match statements") +
                           " (the analysis does not follow them: the calls in their cases get no run-time check)"},
      {c.through_partial, plural_of(c.through_partial, "call", "calls") +
                              " of a functools.partial of a library function (the run-time check cannot see what it binds)"},
  };
  for (const auto& [count, text] : uncovered)
    if (count > 0) out.push_back("not checked: " + text);
  std::vector<std::string> runtime_only;
  if (c.unresolved_calls > 0)
    runtime_only.push_back(plural_of(c.unresolved_calls, "call", "calls") + " of callees the analysis could not resolve");
  if (c.unknown_operands > 0)
    runtime_only.push_back(plural_of(c.unknown_operands, "operator", "operators") + " on values not known to be tensors");
  if (c.unknown_ranks > 0)
    runtime_only.push_back(plural_of(c.unknown_ranks, "call", "calls") + " on tensors of unknown rank");
  if (c.unmodelled > 0)
    runtime_only.push_back(plural_of(c.unmodelled, "call", "calls") + " whose arguments the rule could not read");
  if (!runtime_only.empty()) {
    std::string line = "checked at run time only: ";
    for (std::size_t i = 0; i < runtime_only.size(); ++i) line += (i ? "; " : "") + runtime_only[i];
    out.push_back(line);
  }
  return out;
}

void write_coverage_json(JsonWriter& w, const AnalysisResult& result) {
  const AnalysisResult::Coverage& c = result.coverage;
  w.begin_object();
  w.key("no_rule").begin_object();
  for (const auto& [name, n] : c.no_rule) w.field(name, n);
  w.end_object();
  w.field("unresolved_calls", c.unresolved_calls);
  w.key("unresolved_callees").begin_object();
  for (const auto& [text, n] : c.unresolved_callees) w.field(text, n);
  w.end_object();
  w.field("unknown_operands", c.unknown_operands);
  w.field("unmodelled", c.unmodelled);
  w.field("unknown_ranks", c.unknown_ranks);
  w.field("torchscript", c.torchscript);
  w.field("through_partial", c.through_partial);
  w.field("not_analysed", c.not_analysed);
  w.field("hooked", c.hooked);
  w.key("lines").begin_array();
  for (const std::string& line : coverage_lines(result)) w.value(line);
  w.end_array();
  w.end_object();
}

namespace {

void write_loc(JsonWriter& w, const SourceLoc& loc) {
  w.field("file", loc.valid() ? loc.file->path() : std::string());
  w.field("line", static_cast<uint64_t>(loc.line));
  w.field("column", static_cast<uint64_t>(loc.column));
}

void write_obligation(JsonWriter& w, const AnalysedObligation& a) {
  const gradual::Obligation& ob = a.ob;
  w.begin_object();
  w.field("id", ob.id);
  write_loc(w, ob.loc);
  w.field("begin", static_cast<uint64_t>(ob.loc.begin)).field("end", static_cast<uint64_t>(ob.loc.end));
  w.field("rule", ob.rule);
  w.field("tag", ob.tag);
  w.field("status", gradual::status_name(ob.status));
  w.field("outcome", gradual::outcome_name(a.outcome));
  w.field("constraint", a.constraint_sexpr());
  w.field("static_constraint", a.static_constraint());
  w.field("message", a.message());
  w.field("message_template", a.message_template());
  w.field("runtime_checkable", a.runtime_checkable());
  w.field("decided_without_z3", ob.decided_without_z3);
  w.field("contexts", a.contexts);
  if (!a.context_note.empty()) w.field("context_note", a.context_note);
  w.field("reason", ob.reason);
  if (!ob.origin.empty()) w.field("origin", ob.origin);
  if (a.uncalled_only) w.field("uncalled_only", true);
  w.key("example").begin_object();
  for (const auto& [name, value] : ob.example) w.field(name, value);
  w.end_object();
  w.key("slots").begin_array();
  for (const gradual::SlotInfo& s : ob.slots) {
    w.begin_object().field("slot", s.slot).field("description", s.description);
    if (s.loc.valid()) {
      w.field("line", static_cast<uint64_t>(s.loc.line)).field("column", static_cast<uint64_t>(s.loc.column));
      w.field("begin", static_cast<uint64_t>(s.loc.begin)).field("end", static_cast<uint64_t>(s.loc.end));
    }
    w.end_object();
  }
  w.end_array();
  w.key("core").begin_array();
  for (const gradual::FactRef& f : ob.core) {
    w.begin_object();
    write_loc(w, f.loc);
    w.field("description", f.description);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace

namespace {

// The source text of a shape record's expression on one line, shortened to about 60 characters.
std::string expression_text(const SourceLoc& loc) {
  std::string text;
  const std::string& src = loc.file->text();
  for (uint32_t i = loc.begin; i < loc.end && i < src.size(); ++i) {
    char c = src[i];
    if (c == '\n' || c == '\r') {
      text += ' ';
      continue;
    }
    text += c;
    if (text.size() > 60) {
      text += "...";
      break;
    }
  }
  return text;
}

}  // namespace

void print_check_json(std::ostream& out, const DiagnosticSink& diags, const CheckSummary& summary,
                      const AnalysisResult& result, int exit_code, bool shapes) {
  out << "{\"tool\":\"gshape\",\"version\":" << json_quote(GSHAPE_VERSION) << ",\"command\":\"check\",\"diagnostics\":[";
  bool first = true;
  for (const Diagnostic& d : diags.all()) {
    if (!first) out << ",";
    first = false;
    render_json(out, d);
  }
  out << "],\"obligations\":";
  {
    JsonWriter w(out);
    w.begin_array();
    for (const AnalysedObligation& a : result.obligations) write_obligation(w, a);
    w.end_array();
  }
  std::size_t warnings = result.count(Outcome::Warning);
  out << ",\"summary\":{\"files\":" << summary.files << ",\"modules\":" << summary.modules
      << ",\"errors\":" << summary.errors << ",\"warnings\":" << summary.warnings << ",\"notes\":" << summary.notes
      << ",\"unreadable\":" << summary.unreadable << ",\"obligations\":" << result.obligations.size() << ",\"proven\":" << result.count(Outcome::Proven)
      << ",\"refuted\":" << result.count(Outcome::Error)
      << ",\"deferred\":" << result.count(Outcome::Deferred) + warnings << ",\"warned\":" << warnings
      << ",\"suppressed\":" << summary.suppressed
      << ",\"text\":" << json_quote(summary_line(summary)) << ",\"obligations_text\":"
      << json_quote(obligation_summary_line(result));
  // every obligation (and with --show-shapes every shape) is in the document
  if (std::size_t cut = count_cut_texts(diags, result, true, shapes))
    out << ",\"terms_cut\":" << cut << ",\"terms_cut_text\":" << json_quote(cut_terms_line(cut));
  out << "}";
  out << ",\"coverage\":";
  {
    JsonWriter w(out);
    write_coverage_json(w, result);
  }
  if (!result.argument_symbols.empty()) {  // --args=symbolic
    out << ",\"preconditions\":";
    JsonWriter w(out);
    write_preconditions_json(w, precondition_report(result));
  }
  if (shapes) {  // --show-shapes
    out << ",\"shapes\":";
    JsonWriter w(out);
    w.begin_array();
    for (const gradual::ShapeRecord& r : result.shapes) {
      if (!r.loc.valid()) continue;
      TextRange range = range_of(r.loc);
      w.begin_object();
      w.field("file", r.loc.file->path()).field("line", range.line).field("column", range.column);
      w.field("end_line", range.end_line).field("end_column", range.end_column);
      w.field("expression", expression_text(r.loc));
      w.key("shapes").begin_array();
      for (const std::string& shape : r.shapes) w.value(shape);
      w.end_array();
      w.end_object();
    }
    w.end_array();
  }
  const gradual::AnalysisStats& st = result.stats;
  out << ",\"analysis\":{";
  out << "\"raw_obligations\":" << st.raw_obligations << ",\"decided_without_z3\":" << st.decided_without_z3
      << ",\"decided_by_witness\":" << st.decided_by_witness
      << ",\"z3_checks\":" << st.z3_checks << ",\"z3_unknown\":" << st.z3_unknown << ",\"z3_seconds\":" << st.z3_seconds
      << ",\"solver_cache_hits\":" << st.solver_cache_hits
      << ",\"functions_analysed\":" << st.functions_analysed << ",\"memo_hits\":" << st.memo_hits
      << ",\"budget_exhausted\":" << st.budget_exhausted << ",\"module_failures\":" << st.module_failures
      << ",\"steps\":" << st.steps << ",\"seconds\":" << st.seconds << "}";
  out << ",\"analysis_notes\":[";
  first = true;
  for (const Diagnostic& d : result.internal) {
    if (!first) out << ",";
    first = false;
    render_json(out, d);
  }
  out << "],\"exit_code\":" << exit_code << "}\n";
}

std::size_t count_cut_texts(const DiagnosticSink& diags, const AnalysisResult& result, bool obligations, bool shapes) {
  std::size_t n = 0;
  auto count = [&](const std::string& text) {
    if (gradual::has_cut_term(text)) ++n;
  };
  for (const Diagnostic& d : diags.all()) {
    count(d.message);
    for (const DiagnosticNote& note : d.notes) count(note.message);
  }
  if (obligations) {
    for (const AnalysedObligation& a : result.obligations) {
      count(a.static_constraint());
      count(a.message());
      count(a.ob.reason);
    }
  }
  if (shapes) {
    for (const gradual::ShapeRecord& r : result.shapes)
      for (const std::string& shape : r.shapes) count(shape);
  }
  return n;
}

std::string cut_terms_line(std::size_t texts) {
  return "note: " + std::to_string(texts) + (texts == 1 ? " printed text holds" : " printed texts hold") +
         " terms cut at " + std::to_string(gradual::kMaxPrintedTerm) + " characters (" +
         std::string(gradual::kCutMark) + "); --full-terms prints them in full";
}

void print_obligations_text(std::ostream& out, const AnalysisResult& result) {
  for (const AnalysedObligation& a : result.obligations) {
    const gradual::Obligation& ob = a.ob;
    out << ob.loc.str() << ": #" << ob.id << " " << gradual::outcome_name(a.outcome) << " " << ob.tag << " ("
        << ob.rule << ")";
    if (a.contexts > 1) out << " [" << a.contexts << " contexts]";
    out << "\n";
    out << "    constraint: " << a.constraint_sexpr() << "\n";
    out << "    static:     " << a.static_constraint() << "\n";
    out << "    message:    " << a.message() << "\n";
    if (!a.runtime_checkable() && ob.status != gradual::Status::Proven)
      out << "    (not checkable at run time: it reads values no operand reaches)\n";
    if (a.outcome == Outcome::Deferred || a.outcome == Outcome::Warning) {
      if (!ob.reason.empty()) out << "    reason:     " << ob.reason << "\n";
      if (!ob.example.empty()) out << "    example:    " << ob.example_str() << "\n";
    }
    for (const gradual::FactRef& f : ob.core) out << "    by:         " << f.description << " (" << f.loc.str() << ")\n";
  }
  out << obligation_summary_line(result) << "\n";
}

PreconditionReport precondition_report(const AnalysisResult& result) {
  PreconditionReport r;
  for (const AnalysisResult::ArgumentSymbol& s : result.argument_symbols)
    r.arguments.push_back((s.command.empty() ? "" : s.command + " ") + (s.flag.empty() ? s.dest : s.flag));
  r.config_files = result.symbolic_inputs;
  for (const AnalysisResult::Precondition& p : result.preconditions) {
    PreconditionReport::Item item;
    item.condition = p.condition;
    item.refuted = p.refuted;
    if (p.loc.valid()) {
      item.path = p.loc.file->path();
      item.line = p.loc.line;
    }
    item.tag = p.tag;
    item.rule = p.rule;
    item.message = p.message;
    item.counterexample = p.counterexample;
    item.command = p.command;
    r.items.push_back(std::move(item));
  }
  return r;
}

void print_preconditions_text(std::ostream& out, const PreconditionReport& report) {
  if (report.arguments.empty()) {
    out << "no int argument of an argparse parser: no precondition to state\n";
    return;
  }
  std::string names;
  for (const std::string& a : report.arguments) names += (names.empty() ? "" : ", ") + a;
  out << "arguments as symbols: " << names << "\n";
  if (!report.config_files.empty()) {
    std::string files;
    for (const std::string& f : report.config_files) files += (files.empty() ? "" : ", ") + f;
    out << "config values from: " << files << " (the default paths; another file may change the preconditions)\n";
  }
  if (report.items.empty()) {
    out << "no precondition in these arguments alone (a requirement that also depends on other values, data read at run time or a state that grows in a loop, stays a run-time check)\n";
    return;
  }
  out << "preconditions on them (" << report.items.size() << "):\n";
  for (const PreconditionReport::Item& p : report.items) {
    std::string when = p.command.empty() ? "" : p.command == gradual::kNoSubcommand ? "without a sub-command: " : "with " + p.command + ": ";
    out << "  " << when << (p.refuted ? "never holds: " : "requires ")
        << p.condition << "\n";
    out << "      " << (p.path.empty() ? "" : p.path + ":" + std::to_string(p.line) + ": ") << p.tag << " (" << p.rule
        << ")\n";
    if (!p.counterexample.empty()) out << "      fails for: " << p.counterexample << "\n";
  }
}

void write_preconditions_json(JsonWriter& w, const PreconditionReport& report) {
  w.begin_array();
  for (const PreconditionReport::Item& p : report.items) {
    w.begin_object();
    w.field("condition", p.condition);
    w.field("refuted", p.refuted);
    w.field("file", p.path);
    w.field("line", static_cast<int64_t>(p.line));
    w.field("tag", p.tag);
    w.field("rule", p.rule);
    w.field("message", p.message);
    w.field("counterexample", p.counterexample);
    w.field("command", p.command);
    w.end_object();
  }
  w.end_array();
}

void print_shapes_text(std::ostream& out, const AnalysisResult& result) {
  for (const gradual::ShapeRecord& r : result.shapes) {
    if (!r.loc.valid()) continue;
    out << r.loc.str() << ": " << expression_text(r.loc) << " : ";
    for (std::size_t i = 0; i < r.shapes.size(); ++i) out << (i ? " | " : "") << r.shapes[i];
    out << "\n";
  }
}

}  // namespace gshape::cli
