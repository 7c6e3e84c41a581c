#include "cli/review_html.h"

#include <algorithm>
#include <ostream>
#include <set>
#include <sstream>

#include "cli/review_render.h"
#include "codegen/atomic_file.h"
#include "gshape_version.h"

namespace gshape::cli {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  const auto* s = reinterpret_cast<const unsigned char*>(text.data());
  const std::size_t n = text.size();
  std::size_t i = 0;
  while (i < n) {
    unsigned char c = s[i];
    if (c < 0x80) {
      switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        case '\t':
        case '\n': out += static_cast<char>(c); break;
        default:
          if (c < 0x20 || c == 0x7f) out += "\xEF\xBF\xBD";  // U+FFFD
          else out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    // a UTF-8 sequence: well-formed (no overlong forms, no surrogates) or U+FFFD per byte
    std::size_t len = c >= 0xF0 && c <= 0xF4 ? 4 : c >= 0xE0 ? (c <= 0xEF ? 3 : 0) : c >= 0xC2 && c <= 0xDF ? 2 : 0;
    bool ok = len > 0 && i + len <= n;
    for (std::size_t k = 1; ok && k < len; ++k) ok = (s[i + k] & 0xC0) == 0x80;
    if (ok && len == 3) {
      unsigned char d = s[i + 1];
      if ((c == 0xE0 && d < 0xA0) || (c == 0xED && d >= 0xA0)) ok = false;
    }
    if (ok && len == 4) {
      unsigned char d = s[i + 1];
      if ((c == 0xF0 && d < 0x90) || (c == 0xF4 && d >= 0x90)) ok = false;
    }
    if (!ok) {
      out += "\xEF\xBF\xBD";
      ++i;
      continue;
    }
    out.append(text.substr(i, len));
    i += len;
  }
  return out;
}

namespace {

std::string plural(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string note_key(const std::string& path, uint32_t line, uint32_t column, const std::string& tag) {
  return path + ":" + std::to_string(line) + ":" + std::to_string(column) + ":" + tag;
}

}  // namespace

void add_sources(const Project& project, ReviewPageExtras& extras) {
  for (const ProjectModule& m : project.modules) {
    if (m.file) extras.sources.emplace(m.file->path(), m.file->text());
  }
}

ReviewPageExtras page_extras_from_analysis(const Project& project, const gradual::AnalysisResult& result) {
  ReviewPageExtras x;
  add_sources(project, x);
  x.coverage_known = true;
  for (const gradual::ShapeRecord& r : result.shapes) {
    if (!r.loc.valid() || r.shapes.empty()) continue;
    std::string joined;
    for (std::size_t i = 0; i < r.shapes.size(); ++i) joined += (i ? " | " : "") + r.shapes[i];
    x.shapes[r.loc.file->path()].push_back({r.loc.begin, r.loc.end, std::move(joined)});
    x.shapes_recorded = true;
  }
  for (const gradual::SiteSummary& s : result.sites) {
    if (s.no_rule.empty() || !s.loc.valid()) continue;
    std::string what;
    for (std::size_t i = 0; i < s.no_rule.size(); ++i) what += (i ? ", " : "") + s.no_rule[i];
    what += s.no_rule.size() == 1 ? " has no rule" : " have no rule";
    x.unchecked[s.loc.file->path()].push_back({s.loc.line, s.loc.column, std::move(what)});
  }
  for (const Diagnostic& d : gradual::diagnostics_of(result)) {
    if (!d.loc.valid() || d.tag.empty() || d.notes.empty()) continue;
    std::vector<std::string>& notes = x.notes[note_key(d.loc.file->path(), d.loc.line, d.loc.column, d.tag)];
    for (const DiagnosticNote& n : d.notes) {
      std::string where;
      if (n.loc.valid()) {
        where = n.loc.file == d.loc.file ? "line " + std::to_string(n.loc.line) + ":" + std::to_string(n.loc.column)
                                         : n.loc.str();
      }
      notes.push_back((n.kind == NoteKind::Help ? "help: " : "") + n.message + (where.empty() ? "" : " (" + where + ")"));
    }
  }
  return x;
}

namespace {

constexpr const char* kStyle = R"CSS(
:root { --refuted: #b71c1c; --refuted-bg: #fdecea; --deferred: #8a5300; --deferred-bg: #fff3dc;
        --proven: #1b5e20; --proven-bg: #eaf5ea; --unchecked: #555; --unchecked-bg: #eeeeee; --line: #d0d7de; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 1em 1.5em 4em; color: #1f2328; background: #fff;
       font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
h1 { font-size: 1.5em; margin: .2em 0; } h2 { font-size: 1.2em; margin: 1.6em 0 .4em; }
code, .code, .con, .tag { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12.5px; }
a { color: #0550ae; text-decoration: none; } a:hover { text-decoration: underline; }
.meta { color: #57606a; margin: .1em 0; }
table.summary { border-collapse: collapse; margin: .5em 0; }
table.summary th, table.summary td { border: 1px solid var(--line); padding: 3px 9px; }
table.summary th { background: #f6f8fa; text-align: left; }
table.summary td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.summary tr.total td { font-weight: 600; background: #f6f8fa; }
td.num.nonzero.c-refuted, td.num.nonzero.c-failed { color: var(--refuted); font-weight: 600; }
td.num.nonzero.c-deferred { color: var(--deferred); }
td.num.c-proven { color: var(--proven); }
.legend span { display: inline-block; padding: 0 .5em; margin-right: .4em; border-radius: 3px; }
.legend .refuted { background: var(--refuted-bg); color: var(--refuted); }
.legend .deferred { background: var(--deferred-bg); color: var(--deferred); }
.legend .proven { background: var(--proven-bg); color: var(--proven); }
.legend .unchecked { background: var(--unchecked-bg); color: var(--unchecked); }
.toggles label { margin-right: 1.2em; cursor: pointer; }
input.toggle { position: absolute; opacity: 0; pointer-events: none; }
.toggles label::before { content: "\2610  "; } /* ballot box */
#show-proven:checked ~ header label[for=show-proven]::before,
#show-hidden:checked ~ header label[for=show-hidden]::before { content: "\2611  "; }
ul.attention { margin: .3em 0; padding-left: 1.2em; }
ul.attention li { margin: .1em 0; }
.st { font-weight: 600; text-transform: uppercase; font-size: 11px; letter-spacing: .04em; padding: 0 .4em; border-radius: 3px; }
.st.refuted { background: var(--refuted); color: #fff; } .st.deferred { background: #e0a030; color: #241500; }
.st.proven { background: var(--proven); color: #fff; } .st.unchecked { background: #888; color: #fff; }
section.file { margin-top: 2em; }
section.file h2 { position: sticky; top: 0; background: #fff; padding: .3em 0; border-bottom: 1px solid var(--line); z-index: 2; }
section.file h2 .counts { font-weight: normal; font-size: .8em; color: #57606a; margin-left: .8em; }
table.source { border-collapse: collapse; width: 100%; table-layout: fixed; }
table.source td { padding: 0 6px; vertical-align: top; }
table.source td.ln { width: 4.5em; text-align: right; color: #8c959f; user-select: none; font-family: ui-monospace, monospace; font-size: 12px; }
table.source td.ln a { color: inherit; }
table.source td.mk { width: 1.8em; text-align: center; font-weight: 700; user-select: none; }
table.source td.code { white-space: pre; overflow-x: auto; tab-size: 4; }
tr.line.refuted td { background: var(--refuted-bg); } tr.line.refuted td.mk { color: var(--refuted); box-shadow: inset 3px 0 var(--refuted); }
tr.line.deferred td { background: var(--deferred-bg); } tr.line.deferred td.mk { color: var(--deferred); box-shadow: inset 3px 0 #e0a030; }
tr.line.proven td.mk { color: var(--proven); background: var(--proven-bg); }
tr.line.unchecked td.mk { color: var(--unchecked); background: var(--unchecked-bg); }
tr.line.failed td.ln { color: #fff; background: var(--refuted); }
tr.line:target td { outline: 2px solid #0969da; outline-offset: -2px; }
span.t { border-radius: 2px; }
span.t:hover { background: rgba(9, 105, 218, .12); box-shadow: 0 1px 0 #0969da; cursor: help; }
tr.obs td { padding-bottom: 6px; }
tr.obs.quiet { display: none; }
#show-proven:checked ~ main tr.obs.has-proven, #show-hidden:checked ~ main tr.obs.has-hidden { display: table-row; }
div.ob { margin: 4px 0 2px; padding: 5px 9px; border-left: 4px solid; border-radius: 0 4px 4px 0; white-space: normal; }
div.ob.refuted { border-color: var(--refuted); background: var(--refuted-bg); }
div.ob.deferred { border-color: #e0a030; background: var(--deferred-bg); }
div.ob.proven { border-color: var(--proven); background: var(--proven-bg); display: none; }
div.ob.unchecked { border-color: #999; background: var(--unchecked-bg); }
div.ob.hidden { display: none; opacity: .8; }
#show-proven:checked ~ main div.ob.proven { display: block; }
#show-hidden:checked ~ main div.ob.hidden { display: block; }
div.ob .head { display: flex; flex-wrap: wrap; gap: .6em; align-items: baseline; }
div.ob .pos { color: #57606a; font-family: ui-monospace, monospace; font-size: 12px; }
div.ob .tag { color: #57606a; }
div.ob .flags { color: #57606a; font-style: italic; }
div.ob > div { margin-top: 2px; }
div.ob .lbl { color: #57606a; }
div.ob .run.failed { color: var(--refuted); font-weight: 600; }
.none { color: #57606a; font-style: italic; }
footer { margin-top: 3em; color: #8c959f; font-size: 12px; }
@media print { .toggles, input.toggle { display: none; } section.file h2 { position: static; } }
)CSS";

// The page holds the entries the explicit filters select; trivia and
// suppressed ones are "hidden" (shown by a toggle), as the text listing
// hides them unless --verbose.
bool hidden_entry(const ReviewEntry& e) { return e.needs_check() && (e.suppressed || !trivia_kind(e).empty()); }

int status_rank(const std::string& status) {
  if (status == "refuted") return 3;
  if (status == "deferred") return 2;
  if (status == "proven") return 1;
  return 0;
}

struct LineMarks {
  std::vector<std::size_t> entries;  // indices into review.entries
  std::vector<const ReviewPageExtras::Unchecked*> unchecked;
};

// The worst status of a line: over what is shown by default (refuted and
// deferred entries that are not trivia or suppressed, proven ones), then
// "unchecked" for a line whose only marks are sites without a rule.
std::string line_status(const LineMarks& marks, const Review& review) {
  int best = 0;
  std::string status;
  for (std::size_t i : marks.entries) {
    const ReviewEntry& e = review.entries[i];
    if (hidden_entry(e)) continue;
    if (int r = status_rank(e.status); r > best) {
      best = r;
      status = e.status;
    }
  }
  if (status.empty() && !marks.unchecked.empty()) status = "unchecked";
  return status;
}

const char* status_mark(const std::string& status) {
  if (status == "refuted") return "\xE2\x9C\x96";  // heavy multiplication x
  if (status == "deferred") return "!";
  if (status == "proven") return "\xE2\x9C\x93";  // check mark
  if (status == "unchecked") return "\xE2\x97\x8B";  // white circle
  return "";
}

class PageWriter {
 public:
  PageWriter(std::ostream& out, const Review& review, const ReviewPageExtras& extras, const ReviewPageOptions& options)
      : out_(out), review_(review), extras_(extras), options_(options) {
    for (std::size_t i = 0; i < review.entries.size(); ++i) {
      const ReviewEntry& e = review.entries[i];
      if (options.filter.selects(e)) by_file_[e.path][e.line].entries.push_back(i);
    }
    for (const auto& [path, list] : extras.unchecked) {
      if (!options.filter.files.empty() && !file_selected(path)) continue;
      if (!options.filter.statuses.empty() || !options.filter.tags.empty()) continue;  // not obligations
      for (const ReviewPageExtras::Unchecked& u : list) by_file_[path][u.line].unchecked.push_back(&u);
    }
    std::size_t k = 0;
    for (const auto& [path, lines] : by_file_) file_ids_[path] = "f" + std::to_string(++k);
  }

  void write() {
    out_ << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
         << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
         << "<meta name=\"generator\" content=\"gshape " << html_escape(GSHAPE_VERSION) << "\">\n"
         << "<title>" << html_escape(options_.title) << "</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n";
    // the toggles come before everything they act on (CSS sibling selectors)
    out_ << "<input type=\"checkbox\" class=\"toggle\" id=\"show-proven\"" << (options_.filter.all ? " checked" : "")
         << ">\n<input type=\"checkbox\" class=\"toggle\" id=\"show-hidden\"" << (options_.filter.verbose ? " checked" : "")
         << ">\n";
    write_header();
    out_ << "<main>\n";
    write_summary();
    write_attention();
    for (const auto& [path, lines] : by_file_) write_file(path, lines);
    if (by_file_.empty()) out_ << "<p class=\"none\" id=\"no-obligations\">no shape obligations to show</p>\n";
    out_ << "</main>\n<footer>written by gshape " << html_escape(GSHAPE_VERSION)
         << "; statuses: refuted = no input satisfies it (a static error), deferred = checked at run time, "
            "proven = holds for every input, not checked = a call of an op without a rule</footer>\n</body>\n</html>\n";
  }

 private:
  bool file_selected(const std::string& path) const {
    ReviewEntry probe;
    probe.path = path;
    ReviewFilter f;
    f.files = options_.filter.files;
    return f.selects(probe);
  }

  void write_header() {
    const FileCounts t = review_.totals();
    out_ << "<header>\n<h1>" << html_escape(options_.title) << "</h1>\n";
    out_ << "<p class=\"meta\" id=\"totals\">" << plural(review_.entries.size(), "obligation", "obligations") << ": "
         << "<span data-total=\"proven\">" << t.proven << "</span> proven, <span data-total=\"refuted\">" << t.refuted
         << "</span> refuted, <span data-total=\"deferred\">" << t.deferred << "</span> deferred";
    if (t.warnings > 0) out_ << " (" << t.warnings << (t.warnings == 1 ? " of them a warning)" : " of them warnings)");
    if (extras_.coverage_known) out_ << "; <span data-total=\"unchecked\">" << unchecked_total() << "</span> not checked";
    out_ << " &middot; " << plural(review_.python_files, "Python file", "Python files") << "</p>\n";
    out_ << "<p class=\"meta\">source: "
         << html_escape(review_.source == "analysis" ? std::string("the analysis just run") : review_.source);
    if (review_.has_stats()) {
      out_ << " &middot; run counters: " << html_escape(review_.stats_path);
      if (!review_.stats_checks_enabled) out_ << " (a run with GSHAPE_CHECKS=0: nothing was checked)";
    }
    if (options_.filter.explicit_filters()) out_ << " &middot; <span id=\"filtered\">filtered by --status/--tag/--file</span>";
    out_ << "</p>\n";
    if (!extras_.shapes_recorded) {
      out_ << "<p class=\"meta\">no inferred shapes on this page"
           << (review_.source == "analysis" ? "" : " (read from a report file: analyse the PATHs to have them)") << "</p>\n";
    } else {
      out_ << "<p class=\"meta\">hover over an expression for its inferred shape</p>\n";
    }
    out_ << "<p class=\"legend\"><span class=\"refuted\">" << status_mark("refuted") << " refuted</span>"
         << "<span class=\"deferred\">" << status_mark("deferred") << " deferred</span>"
         << "<span class=\"proven\">" << status_mark("proven") << " proven</span>"
         << "<span class=\"unchecked\">" << status_mark("unchecked") << " not checked</span></p>\n";
    out_ << "<p class=\"toggles\"><label for=\"show-proven\">show proven obligations</label>"
         << "<label for=\"show-hidden\">show trivia and suppressed obligations</label></p>\n";
    if (review_.preconditions) preconditions_section(*review_.preconditions);
    if (!review_.unanalysed_files.empty()) {
      out_ << "<p class=\"meta\" id=\"unanalysed\">not analysed (could not be read or parsed): ";
      for (std::size_t i = 0; i < review_.unanalysed_files.size(); ++i)
        out_ << (i ? ", " : "") << "<code>" << html_escape(review_.unanalysed_files[i]) << "</code>";
      out_ << "</p>\n";
    }
    for (const std::string& note : review_.unchecked_notes) {  // operations nested too deep to check
      out_ << "<p class=\"meta unchecked-note\">" << html_escape(note) << "</p>\n";
    }
    if (!review_.unmatched_stats.empty()) {
      out_ << "<p class=\"meta\">the stats file has " << plural(review_.unmatched_stats.size(), "site", "sites")
           << " in files this review does not hold (was the project changed since the run?)</p>\n";
    }
    out_ << "</header>\n";
  }

  // --args=symbolic: what the script requires of its int arguments, at the top.
  void preconditions_section(const PreconditionReport& r) {
    out_ << "<section id=\"preconditions\"><h2>Preconditions on the command-line arguments</h2>\n";
    if (r.arguments.empty()) {
      out_ << "<p class=\"meta\">no int argument of an argparse parser: no precondition to state</p></section>\n";
      return;
    }
    out_ << "<p class=\"meta\">arguments as symbols: ";
    for (std::size_t i = 0; i < r.arguments.size(); ++i)
      out_ << (i ? ", " : "") << "<code>" << html_escape(r.arguments[i]) << "</code>";
    out_ << "</p>\n";
    if (!r.config_files.empty()) {
      out_ << "<p class=\"meta\">config values from: ";
      for (std::size_t i = 0; i < r.config_files.size(); ++i)
        out_ << (i ? ", " : "") << "<code>" << html_escape(r.config_files[i]) << "</code>";
      out_ << " (the default paths; another file may change the preconditions)</p>\n";
    }
    if (r.items.empty()) {
      out_ << "<p class=\"none\">no precondition in these arguments alone (a requirement that also depends on other values, data read at run time or a state that grows in a loop, stays a run-time check)</p>"
           << "</section>\n";
      return;
    }
    out_ << "<ul>\n";
    for (const PreconditionReport::Item& p : r.items) {
      out_ << "<li class=\"" << (p.refuted ? "never" : "requires") << "\">"
           << (p.command.empty()                      ? std::string()
               : p.command == gradual::kNoSubcommand ? std::string("without a sub-command: ")
                                                     : "with <code class=\"command\">" + html_escape(p.command) + "</code>: ")
           << (p.refuted ? "never holds: " : "requires ") << "<code class=\"condition\">" << html_escape(p.condition)
           << "</code> &mdash; ";
      if (!p.path.empty()) out_ << html_escape(p.path) << ":" << p.line << ": ";
      out_ << "<span class=\"tag\">" << html_escape(p.tag) << "</span> (" << html_escape(p.rule) << ")";
      if (!p.counterexample.empty())
        out_ << "; fails for <code class=\"counterexample\">" << html_escape(p.counterexample) << "</code>";
      out_ << "</li>\n";
    }
    out_ << "</ul></section>\n";
  }

  std::size_t unchecked_total() const {
    std::size_t n = 0;
    for (const auto& [path, list] : extras_.unchecked) n += list.size();
    return n;
  }

  void write_summary() {
    std::map<std::string, FileCounts> files = review_.counts_by_file();
    std::set<std::string> paths;
    for (const auto& [path, c] : files) paths.insert(path);
    for (const auto& [path, list] : extras_.unchecked) paths.insert(path);
    out_ << "<section id=\"summary\">\n<h2>Summary</h2>\n<table class=\"summary\">\n<thead><tr><th>file</th>"
         << "<th>proven</th><th>refuted</th><th>deferred</th><th>not checked</th><th>no run-time check</th>";
    if (review_.has_stats()) out_ << "<th>ran</th><th>failed</th>";
    out_ << "</tr></thead>\n<tbody>\n";
    auto cell = [&](const char* key, std::size_t n) {
      out_ << "<td class=\"num c-" << key << (n ? " nonzero" : "") << "\" data-count=\"" << key << "\">" << n << "</td>";
    };
    auto row = [&](const FileCounts& c, std::size_t unchecked) {
      cell("proven", c.proven);
      cell("refuted", c.refuted);
      cell("deferred", c.deferred);
      if (extras_.coverage_known) cell("unchecked", unchecked);
      else out_ << "<td class=\"num\" title=\"not known: read from a report file\">-</td>";
      cell("not-instrumentable", c.not_instrumentable);
      if (review_.has_stats()) {
        cell("ran", c.ran);
        cell("failed", c.failed);
      }
    };
    for (const std::string& path : paths) {
      FileCounts c;
      if (auto it = files.find(path); it != files.end()) c = it->second;
      std::size_t unchecked = 0;
      if (auto it = extras_.unchecked.find(path); it != extras_.unchecked.end()) unchecked = it->second.size();
      out_ << "<tr class=\"file-row\" data-path=\"" << html_escape(path) << "\"><td>";
      auto id = file_ids_.find(path);
      if (id != file_ids_.end()) out_ << "<a href=\"#" << id->second << "\">" << html_escape(path) << "</a>";
      else out_ << html_escape(path);
      out_ << "</td>";
      row(c, unchecked);
      out_ << "</tr>\n";
    }
    out_ << "</tbody>\n<tfoot><tr class=\"total\"><td>total (" << plural(paths.size(), "file", "files") << ")</td>";
    row(review_.totals(), unchecked_total());
    out_ << "</tr></tfoot>\n</table>\n";
    out_ << "<p class=\"meta\">not checked: calls of ops without a rule (neither proven nor checked at run time); "
            "no run-time check: refuted or deferred, but no check could be inserted</p>\n</section>\n";
  }

  std::string entry_link(std::size_t i) const {
    const ReviewEntry& e = review_.entries[i];
    return "<a href=\"#o" + std::to_string(i) + "\">" + html_escape(e.path) + ":" + std::to_string(e.line) + ":" +
           std::to_string(e.column) + "</a>";
  }

  void write_attention() {
    std::vector<std::size_t> refuted, deferred, failed;
    for (const auto& [path, lines] : by_file_) {
      for (const auto& [line, marks] : lines) {
        for (std::size_t i : marks.entries) {
          const ReviewEntry& e = review_.entries[i];
          if (e.run && e.run->failures > 0) failed.push_back(i);
          if (hidden_entry(e)) continue;
          if (e.status == "refuted") refuted.push_back(i);
          if (e.status == "deferred") deferred.push_back(i);
        }
      }
    }
    if (refuted.empty() && deferred.empty() && failed.empty()) return;
    out_ << "<section id=\"attention\">\n<h2>Needs attention</h2>\n";
    auto list = [&](const char* id, const char* title, const std::vector<std::size_t>& items, bool open) {
      if (items.empty()) return;
      out_ << "<details id=\"" << id << "\"" << (open ? " open" : "") << "><summary>" << title << " ("
           << items.size() << ")</summary>\n<ul class=\"attention\">\n";
      constexpr std::size_t kMax = 300;
      for (std::size_t k = 0; k < items.size() && k < kMax; ++k) {
        const ReviewEntry& e = review_.entries[items[k]];
        out_ << "<li>" << entry_link(items[k]) << " <code class=\"tag\">" << html_escape(e.tag) << "</code> "
             << html_escape(e.message) << "</li>\n";
      }
      if (items.size() > kMax) out_ << "<li class=\"none\">and " << items.size() - kMax << " more</li>\n";
      out_ << "</ul></details>\n";
    };
    list("failed-list", "checks that failed in the run", failed, true);
    list("refuted-list", "refuted: static errors", refuted, true);
    list("deferred-list", "deferred: checked at run time", deferred, refuted.size() + deferred.size() <= 40);
    out_ << "</section>\n";
  }

  void write_entry(std::size_t i) {
    const ReviewEntry& e = review_.entries[i];
    const bool hidden = hidden_entry(e);
    out_ << "<div class=\"ob " << e.status << (hidden ? " hidden" : "") << (e.suppressed ? " suppressed" : "")
         << "\" id=\"o" << i << "\" data-status=\"" << e.status << "\" data-tag=\"" << html_escape(e.tag)
         << "\" data-line=\"" << e.line << "\" data-column=\"" << e.column << "\"";
    if (e.run) out_ << " data-runs=\"" << e.run->runs << "\" data-failures=\"" << e.run->failures << "\"";
    out_ << ">\n<div class=\"head\"><span class=\"st " << e.status << "\">" << e.status << "</span>"
         << "<span class=\"pos\">" << e.line << ":" << e.column << "</span>"
         << "<span class=\"tag\">" << html_escape(e.tag) << "</span>";
    if (!e.needs_check()) {
      out_ << "<span>holds for every input"
           << (e.constraint == "True" || e.constraint.empty() ? std::string(" (the call's constants satisfy it)")
                                                             : ": <code class=\"con\">" + html_escape(e.constraint) + "</code>")
           << "</span></div>\n</div>\n";
      return;
    }
    out_ << "<code class=\"con\">" << html_escape(e.constraint) << "</code>";
    std::vector<std::string> flags;
    if (e.outcome == "warning") flags.push_back("warning");
    if (std::string t = trivia_kind(e); !t.empty()) flags.push_back(t == "sign" ? "trivia: a sign requirement" : "trivia: 0-dimensional operand");
    if (e.suppressed && e.severity != "ignore") flags.push_back("suppressed by a 'gshape: ignore' comment");
    if (!e.severity.empty()) flags.push_back("configured severity: " + e.severity);
    if (!flags.empty()) {
      out_ << "<span class=\"flags\">";
      for (std::size_t k = 0; k < flags.size(); ++k) out_ << (k ? "; " : "") << html_escape(flags[k]);
      out_ << "</span>";
    }
    out_ << "</div>\n";
    out_ << "<div class=\"msg\">" << (e.status == "refuted" ? "<b>error:</b> " : e.outcome == "warning" ? "<b>warning:</b> " : "")
         << html_escape(e.message) << "</div>\n";
    if (auto it = extras_.notes.find(note_key(e.path, e.line, e.column, e.tag)); it != extras_.notes.end()) {
      for (const std::string& n : it->second) out_ << "<div class=\"note\"><span class=\"lbl\">note:</span> " << html_escape(n) << "</div>\n";
    }
    if (!e.context_note.empty()) out_ << "<div class=\"ctx\">" << html_escape(e.context_note) << "</div>\n";
    if (e.status == "deferred") {
      out_ << "<div class=\"why\"><span class=\"lbl\">not proven:</span> "
           << html_escape(e.reason.empty() ? std::string("no reason recorded") : e.reason) << "</div>\n";
    }
    if (!e.example.empty()) out_ << "<div class=\"ex\"><span class=\"lbl\">fails for:</span> <code>" << html_escape(e.example_text()) << "</code></div>\n";
    out_ << "<div class=\"chk\"><span class=\"lbl\">run-time check:</span> " << html_escape(runtime_check_text(e)) << "</div>\n";
    if (review_.has_stats()) {
      bool failed = e.run && e.run->failures > 0;
      out_ << "<div class=\"run" << (failed ? " failed" : "") << "\"><span class=\"lbl\">in the run:</span> "
           << html_escape(run_text(e, review_)) << "</div>\n";
    }
    out_ << "</div>\n";
  }

  // One line of code with each recorded tensor expression inside it wrapped
  // in a span carrying its shape; `spans` are the shapes of this line in
  // (begin, -end) order, properly nested.
  void write_code(std::string_view text, std::size_t begin, std::size_t end,
                  const std::vector<const ReviewPageExtras::Shape*>& spans) {
    std::vector<std::size_t> open_ends;  // ends of the open spans, innermost last
    std::size_t pos = begin;
    auto flush = [&](std::size_t to) {
      if (to > pos) out_ << html_escape(text.substr(pos, to - pos));
      pos = to;
    };
    for (const ReviewPageExtras::Shape* s : spans) {
      while (!open_ends.empty() && open_ends.back() <= s->begin) {
        flush(open_ends.back());
        out_ << "</span>";
        open_ends.pop_back();
      }
      flush(s->begin);
      std::string shape = html_escape(s->shapes);
      out_ << "<span class=\"t\" title=\"" << shape << "\" data-shape=\"" << shape << "\">";
      open_ends.push_back(s->end);
    }
    while (!open_ends.empty()) {
      flush(open_ends.back());
      out_ << "</span>";
      open_ends.pop_back();
    }
    flush(end);
  }

  // The spans of one file that lie on one line each, properly nested
  // (an expression partly overlapping another is left out), sorted.
  std::vector<const ReviewPageExtras::Shape*> usable_spans(const std::string& path, std::string_view text) const {
    std::vector<const ReviewPageExtras::Shape*> out;
    auto it = extras_.shapes.find(path);
    if (it == extras_.shapes.end()) return out;
    for (const ReviewPageExtras::Shape& s : it->second) {
      if (s.begin >= s.end || s.end > text.size()) continue;
      if (text.substr(s.begin, s.end - s.begin).find_first_of("\r\n") != std::string_view::npos) continue;
      out.push_back(&s);
    }
    std::stable_sort(out.begin(), out.end(), [](const auto* a, const auto* b) {
      return a->begin != b->begin ? a->begin < b->begin : a->end > b->end;
    });
    std::vector<const ReviewPageExtras::Shape*> nested;
    std::vector<uint32_t> stack;  // ends of the enclosing spans
    for (const ReviewPageExtras::Shape* s : out) {
      while (!stack.empty() && stack.back() <= s->begin) stack.pop_back();
      if (!stack.empty() && s->end > stack.back()) continue;  // partial overlap
      if (!nested.empty() && nested.back()->begin == s->begin && nested.back()->end == s->end) continue;  // same range
      nested.push_back(s);
      stack.push_back(s->end);
    }
    return nested;
  }

  void write_marks_row(const LineMarks& marks) {
    bool loud = false, has_proven = false, has_hidden = false;
    for (std::size_t i : marks.entries) {
      const ReviewEntry& e = review_.entries[i];
      if (hidden_entry(e)) has_hidden = true;
      else if (e.status == "proven") has_proven = true;
      else loud = true;
    }
    if (!marks.unchecked.empty()) loud = true;
    out_ << "<tr class=\"obs" << (loud ? "" : " quiet") << (has_proven ? " has-proven" : "") << (has_hidden ? " has-hidden" : "")
         << "\"><td class=\"ln\"></td><td class=\"mk\"></td><td>\n";
    // refuted first, then deferred, then proven; by column within each
    std::vector<std::size_t> order = marks.entries;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return status_rank(review_.entries[a].status) > status_rank(review_.entries[b].status);
    });
    for (std::size_t i : order) write_entry(i);
    for (const ReviewPageExtras::Unchecked* u : marks.unchecked) {
      out_ << "<div class=\"ob unchecked\" data-status=\"unchecked\" data-line=\"" << u->line << "\" data-column=\""
           << u->column << "\"><div class=\"head\"><span class=\"st unchecked\">not checked</span><span class=\"pos\">"
           << u->line << ":" << u->column << "</span><span>" << html_escape(u->what)
           << ": neither proven nor checked at run time</span></div></div>\n";
    }
    out_ << "</td></tr>\n";
  }

  void write_line_row(const std::string& fid, uint32_t line, const LineMarks* marks, std::string_view text,
                      std::size_t begin, std::size_t end, const std::vector<const ReviewPageExtras::Shape*>& spans) {
    std::string status = marks ? line_status(*marks, review_) : std::string();
    bool failed = false;
    std::string title;
    if (marks) {
      std::map<std::string, std::size_t> n;
      for (std::size_t i : marks->entries) {
        const ReviewEntry& e = review_.entries[i];
        ++n[e.status];
        if (e.run && e.run->failures > 0) failed = true;
      }
      for (const char* s : {"refuted", "deferred", "proven"}) {
        if (n[s]) title += (title.empty() ? "" : ", ") + std::to_string(n[s]) + " " + s;
      }
      if (!marks->unchecked.empty()) title += (title.empty() ? "" : ", ") + std::to_string(marks->unchecked.size()) + " not checked";
      if (failed) title += "; a check failed in the run";
    }
    out_ << "<tr class=\"line" << (status.empty() ? "" : " " + status) << (failed ? " failed" : "") << "\" id=\"" << fid
         << "-L" << line << "\"";
    if (!status.empty()) out_ << " data-status=\"" << status << "\"";
    out_ << "><td class=\"ln\"><a href=\"#" << fid << "-L" << line << "\">" << line << "</a></td><td class=\"mk\"";
    if (!title.empty()) out_ << " title=\"" << html_escape(title) << "\"";
    out_ << ">" << status_mark(status) << "</td><td class=\"code\">";
    write_code(text, begin, end, spans);
    out_ << "</td></tr>\n";
    if (marks) write_marks_row(*marks);
  }

  void write_file(const std::string& path, const std::map<uint32_t, LineMarks>& lines) {
    const std::string& fid = file_ids_.at(path);
    FileCounts c;
    for (const auto& [line, marks] : lines) {
      for (std::size_t i : marks.entries) c.add(review_.entries[i]);
    }
    out_ << "<section class=\"file\" id=\"" << fid << "\" data-path=\"" << html_escape(path) << "\">\n<h2><code>"
         << html_escape(path) << "</code><span class=\"counts\">" << c.refuted << " refuted, " << c.deferred
         << " deferred, " << c.proven << " proven</span></h2>\n<table class=\"source\">\n";
    auto src = extras_.sources.find(path);
    uint32_t written = 0;  // lines of source written
    if (src != extras_.sources.end()) {
      std::string_view text = src->second;
      std::vector<const ReviewPageExtras::Shape*> spans = usable_spans(path, text);
      std::size_t next_span = 0;
      std::size_t start = 0;
      while (start < text.size()) {
        const uint32_t line = ++written;
        std::size_t nl = text.find('\n', start);
        std::size_t end = nl == std::string_view::npos ? text.size() : nl;
        if (end > start && text[end - 1] == '\r') --end;
        std::vector<const ReviewPageExtras::Shape*> here;
        while (next_span < spans.size() && spans[next_span]->begin < start) ++next_span;
        while (next_span < spans.size() && spans[next_span]->end <= end) here.push_back(spans[next_span++]);
        auto marks = lines.find(line);
        write_line_row(fid, line, marks == lines.end() ? nullptr : &marks->second, text, start, end, here);
        if (nl == std::string_view::npos) break;
        start = nl + 1;
      }
    }
    // marks with no source line to go to: no source (a report read back
    // after the file moved), a line past its end, or no line at all
    bool header = false;
    for (const auto& [line, marks] : lines) {
      if (line >= 1 && line <= written) continue;
      if (!header) {
        out_ << "<tr><td></td><td></td><td class=\"none\">"
             << (src == extras_.sources.end() ? "the source of this file is not available" : "not on a line of the file")
             << "</td></tr>\n";
        header = true;
      }
      write_line_row(fid, line, &marks, std::string_view(), 0, 0, {});
    }
    out_ << "</table>\n</section>\n";
  }

  std::ostream& out_;
  const Review& review_;
  const ReviewPageExtras& extras_;
  const ReviewPageOptions& options_;
  std::map<std::string, std::map<uint32_t, LineMarks>> by_file_;  // what the page holds, by path and line
  std::map<std::string, std::string> file_ids_;
};

}  // namespace

void write_review_html(std::ostream& out, const Review& review, const ReviewPageExtras& extras,
                       const ReviewPageOptions& options) {
  PageWriter(out, review, extras, options).write();
}

std::string write_review_html_file(const std::string& path, const Review& review, const ReviewPageExtras& extras,
                                   const ReviewPageOptions& options) {
  std::ostringstream page;
  write_review_html(page, review, extras, options);
  return codegen::write_file_atomically(path, page.str());
}

}  // namespace gshape::cli
