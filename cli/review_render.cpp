#include "cli/review_render.h"

#include <algorithm>
#include <ostream>

#include "frontend/json_writer.h"
#include "gshape_version.h"

namespace gshape::cli {

namespace {

const char* status_color(const std::string& status) {
  if (status == "refuted") return "\033[1;31m";
  if (status == "deferred") return "\033[1;33m";
  return "\033[1;32m";
}

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// One obligation: its position, status, tag and constraint, then (for
// refuted and deferred ones) what to know about it, indented under the constraint.
void print_entry(std::ostream& out, const ReviewEntry& e, std::size_t loc_width, std::size_t tag_width,
                 const Review& review, bool color) {
  std::string loc = std::to_string(e.line) + ":" + std::to_string(e.column);
  const std::string& status = e.status;
  out << "    " << loc << std::string(loc_width - loc.size(), ' ') << "  ";
  if (color) out << status_color(status);
  out << status;
  if (color) out << "\033[0m";
  out << std::string(8 - std::min<std::size_t>(status.size(), 8), ' ') << "  " << e.tag
      << std::string(tag_width - std::min(tag_width, e.tag.size()), ' ') << "  ";
  if (!e.needs_check()) {
    // what was proven, not the message of a failure that cannot happen
    if (e.constraint == "True" || e.constraint.empty()) out << "holds for every input (the call's constants satisfy it)\n";
    else out << "holds for every input: " << e.constraint << "\n";
    return;
  }
  out << e.constraint << "\n";
  const std::string indent(4 + loc_width + 2, ' ');
  auto line = [&](const std::string& label, const std::string& text) {
    if (!text.empty()) out << indent << label << text << "\n";
  };
  std::string notes;
  if (e.suppressed && e.severity != "ignore") notes += "suppressed by a 'gshape: ignore' comment";
  if (!e.severity.empty()) notes += std::string(notes.empty() ? "" : "; ") + "configured severity: " + e.severity;
  if (e.status == "refuted") {
    line("error: ", e.message);
  } else {
    line(e.outcome == "warning" ? "warning: " : "", e.message);
    line("", e.context_note);
    std::string why = "not proven: " + (e.reason.empty() ? std::string("no reason recorded") : e.reason);
    if (!e.example.empty()) why += "; fails for " + e.example_text();
    line("", why);
  }
  line("", notes);
  // an inserted check is the rule for what is not proven: say only when it is not there
  if (e.status == "refuted" || e.runtime_check != "inserted") line("run-time check: ", runtime_check_text(e));
  if (review.has_stats()) line("in the run: ", run_text(e, review));
}

// One section (refuted, deferred or proven): per file, per function.
void print_section(std::ostream& out, const char* title, const std::vector<const ReviewEntry*>& entries,
                   const Review& review, bool color) {
  if (entries.empty()) return;
  out << title << " (" << entries.size() << ")\n";
  std::size_t i = 0;
  while (i < entries.size()) {
    const std::string& path = entries[i]->path;
    out << path << "\n";
    while (i < entries.size() && entries[i]->path == path) {
      const std::string& function = entries[i]->function;
      std::size_t end = i;
      std::size_t loc_width = 0, tag_width = 0;
      while (end < entries.size() && entries[end]->path == path && entries[end]->function == function) {
        const ReviewEntry& f = *entries[end];
        loc_width = std::max(loc_width, std::to_string(f.line).size() + 1 + std::to_string(f.column).size());
        tag_width = std::max(tag_width, f.tag.size());
        ++end;
      }
      if (function.empty()) out << "  at module level\n";
      else out << "  in " << function << " (line " << entries[i]->function_line << ")\n";
      for (; i < end; ++i) print_entry(out, *entries[i], loc_width, tag_width, review, color);
    }
  }
  out << "\n";
}

std::string pad_left(const std::string& s, std::size_t width) {
  return std::string(width - std::min(width, s.size()), ' ') + s;
}

}  // namespace

namespace {
std::string times(int64_t n) { return std::to_string(n) + (n == 1 ? " time" : " times"); }

}  // namespace

std::string run_text(const ReviewEntry& e, const Review& review) {
  if (!review.stats_checks_enabled) return "not run (the run had GSHAPE_CHECKS=0)";
  if (e.runtime_check != "inserted") return "no check to run";
  if (!e.run || e.run->runs == 0) return "never ran";
  std::string s = "ran " + times(e.run->runs) + ", ";
  s += e.run->failures == 0 ? std::string("never failed") : "failed " + times(e.run->failures);
  if (e.run->skipped > 0) s += ", not evaluable " + times(e.run->skipped);
  return s;
}

std::string runtime_check_text(const ReviewEntry& e) {
  if (e.runtime_check == "inserted") return "inserted";
  if (e.runtime_check == "not_instrumentable") return "not instrumentable: " + e.runtime_reason;
  if (e.runtime_check == "not_in_plan") return "none (" + e.runtime_reason + ")";
  return e.runtime_check;
}

void print_review_table(std::ostream& out, const Review& review) {
  std::map<std::string, FileCounts> files = review.counts_by_file();
  std::string total_label = "total (" + std::to_string(files.size()) + (files.size() == 1 ? " file)" : " files)");
  std::size_t width = std::max<std::size_t>(4, total_label.size());
  for (const auto& [path, counts] : files) width = std::max(width, path.size());
  std::vector<std::string> headings = {"proven", "refuted", "deferred", "not instrumentable"};
  if (review.has_stats()) {
    headings.push_back("ran");
    headings.push_back("failed");
  }
  out << "file" << std::string(width - 4, ' ');
  for (const std::string& h : headings) out << "  " << h;
  out << "\n";
  auto row = [&](const std::string& label, const FileCounts& c) {
    std::vector<std::size_t> values = {c.proven, c.refuted, c.deferred, c.not_instrumentable};
    if (review.has_stats()) {
      values.push_back(c.ran);
      values.push_back(c.failed);
    }
    out << label << std::string(width - label.size(), ' ');
    for (std::size_t i = 0; i < values.size(); ++i) out << "  " << pad_left(std::to_string(values[i]), headings[i].size());
    out << "\n";
  };
  for (const auto& [path, counts] : files) row(path, counts);
  row(total_label, review.totals());
}

void print_review_text(std::ostream& out, const Review& review, const ReviewPrintOptions& options) {
  Triage t = triage_review(review, options.filter);
  if (review.preconditions) {  // --args=symbolic: what the script requires of its command line, first
    print_preconditions_text(out, *review.preconditions);
    out << "\n";
  }
  if (!options.summary_only) {
    print_section(out, "refuted", t.refuted, review, options.color);
    print_section(out, "deferred", t.deferred, review, options.color);
    print_section(out, "proven", t.proven, review, options.color);
  }
  for (const std::string& f : review.unanalysed_files) out << f << ": not analysed (it could not be read or parsed)\n";
  for (const std::string& note : review.unchecked_notes) out << note << "\n";
  if (review.entries.empty()) {
    out << "no shape obligations";
    if (review.python_files > 0) out << " in " << review.python_files << (review.python_files == 1 ? " file" : " files");
    out << "\n";
    return;
  }
  print_review_table(out, review);
  if (review.has_stats()) {
    out << "checks executed: from " << review.stats_path;
    if (!review.stats_checks_enabled) out << " (a run with GSHAPE_CHECKS=0: nothing was checked)";
    out << "\n";
    if (!review.unmatched_stats.empty()) {
      out << "note: the stats file has " << review.unmatched_stats.size()
          << (review.unmatched_stats.size() == 1 ? " site" : " sites")
          << " in files this review does not hold (was the project changed since the run?): "
          << review.unmatched_stats.front() << (review.unmatched_stats.size() > 1 ? ", ..." : "") << "\n";
    }
  }
  if (options.summary_only) return;
  // what the listing left out, and how to see it
  std::vector<std::string> hidden;
  if (t.hidden_proven) hidden.push_back(plural(t.hidden_proven, "proven obligation", "proven obligations") + " (--all)");
  std::size_t verbose_only = t.hidden_sign + t.hidden_rank0 + t.hidden_suppressed;
  if (t.hidden_sign) hidden.push_back(plural(t.hidden_sign, "deferred requirement", "deferred requirements") + " that a size or hyperparameter is not negative");
  if (t.hidden_rank0) hidden.push_back(plural(t.hidden_rank0, "deferred requirement", "deferred requirements") + " that an operand is not 0-dimensional");
  if (t.hidden_suppressed) hidden.push_back(plural(t.hidden_suppressed, "suppressed obligation", "suppressed obligations"));
  if (t.filtered_out) hidden.push_back(plural(t.filtered_out, "obligation", "obligations") + " outside --status/--tag/--file");
  if (!hidden.empty()) {
    out << "not listed: ";
    for (std::size_t i = 0; i < hidden.size(); ++i) out << (i ? ", " : "") << hidden[i];
    if (verbose_only > 0) out << " (--verbose lists the " << (t.hidden_suppressed ? "trivial and suppressed" : "trivial") << " ones)";
    out << "\n";
  }
}

void print_review_json(std::ostream& out, const Review& review, const ReviewFilter& filter, int exit_code,
                       const std::string& html_path) {
  JsonWriter w(out);
  w.begin_object();
  w.field("tool", "gshape").field("version", GSHAPE_VERSION).field("command", "report");
  w.field("source", review.source);
  w.key("stats");
  if (review.has_stats()) {
    w.begin_object().field("path", review.stats_path).field("checks_enabled", review.stats_checks_enabled).end_object();
  } else {
    w.null();
  }
  w.key("obligations").begin_array();
  for (const ReviewEntry& e : review.entries) {
    if (!filter.selects(e)) continue;
    w.begin_object();
    w.field("path", e.path).field("line", static_cast<uint64_t>(e.line)).field("column", static_cast<uint64_t>(e.column));
    w.field("tag", e.tag).field("rule", e.rule).field("status", e.status).field("outcome", e.outcome);
    w.field("constraint", e.constraint).field("runtime_constraint", e.runtime_constraint);
    w.field("static_constraint", e.static_constraint).field("message", e.message);
    w.field("reason", e.reason);
    if (!e.origin.empty()) w.field("origin", e.origin);
    w.key("example").begin_object();
    for (const auto& [name, value] : e.example) w.field(name, value);
    w.end_object();
    w.field("example_text", e.example_text());
    if (!e.context_note.empty()) w.field("context_note", e.context_note);
    w.field("runtime_check", e.runtime_check).field("runtime_reason", e.runtime_reason);
    w.field("function", e.function).field("function_line", static_cast<uint64_t>(e.function_line));
    w.field("trivia", trivia_kind(e)).field("suppressed", e.suppressed);
    w.field("severity", e.severity);
    if (review.has_stats()) {
      w.key("run");
      if (e.run) {
        w.begin_object().field("runs", e.run->runs).field("failures", e.run->failures).field("skipped", e.run->skipped).end_object();
      } else {
        w.null();
      }
    }
    w.end_object();
  }
  w.end_array();
  auto counts = [&](const FileCounts& c) {
    w.field("proven", static_cast<uint64_t>(c.proven)).field("refuted", static_cast<uint64_t>(c.refuted));
    w.field("deferred", static_cast<uint64_t>(c.deferred)).field("warnings", static_cast<uint64_t>(c.warnings));
    w.field("not_instrumentable", static_cast<uint64_t>(c.not_instrumentable));
    if (review.has_stats()) w.field("ran", static_cast<uint64_t>(c.ran)).field("failed", static_cast<uint64_t>(c.failed));
  };
  w.key("files").begin_array();
  for (const auto& [path, c] : review.counts_by_file()) {
    w.begin_object().field("path", path);
    counts(c);
    w.end_object();
  }
  w.end_array();
  w.key("summary").begin_object();
  w.field("python_files", static_cast<uint64_t>(review.python_files));
  w.field("obligations", static_cast<uint64_t>(review.entries.size()));
  counts(review.totals());
  w.end_object();
  w.key("unchecked_notes").begin_array();
  for (const std::string& note : review.unchecked_notes) w.value(note);
  w.end_array();
  w.key("unanalysed_files").begin_array();
  for (const std::string& f : review.unanalysed_files) w.value(f);
  w.end_array();
  w.key("unmatched_stats").begin_array();
  for (const std::string& s : review.unmatched_stats) w.value(s);
  w.end_array();
  // --args=symbolic: the arguments as symbols and the preconditions (null without)
  w.key("symbolic_arguments");
  if (review.preconditions) {
    w.begin_array();
    for (const std::string& a : review.preconditions->arguments) w.value(a);
    w.end_array();
  } else {
    w.null();
  }
  w.key("preconditions");
  if (review.preconditions) write_preconditions_json(w, *review.preconditions);
  else w.null();
  w.key("html");
  if (html_path.empty()) {
    w.null();
  } else {
    w.value(html_path);
  }
  w.field("exit_code", exit_code);
  w.end_object();
  out << "\n";
}

}  // namespace gshape::cli
