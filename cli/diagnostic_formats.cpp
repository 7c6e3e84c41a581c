#include "cli/diagnostic_formats.h"

#include <filesystem>
#include <map>
#include <ostream>
#include <set>
#include <vector>
#include <cctype>

#include "frontend/json_writer.h"
#include "gshape_version.h"

namespace gshape::cli {

namespace {

const std::string& path_of(const Diagnostic& d) { return d.loc.valid() ? d.loc.file->path() : d.path; }

// The rule id of a diagnostic without a tag: what kind of problem it is.
std::string rule_id(const Diagnostic& d) {
  if (!d.tag.empty()) return d.tag;
  return d.loc.valid() ? "gshape" : "gshape-file";
}

const char* sarif_level(Severity s) {
  switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Note: return "note";
  }
  return "error";
}

// SARIF artifact URIs are URI references: relative paths stay relative (to
// the working directory, %SRCROOT%), absolute ones become file:// URIs;
// characters outside the unreserved set and '/' are percent-encoded.
std::string sarif_uri(const std::string& path) {
  std::string generic = std::filesystem::path(path).generic_string();
  std::string out;
  static const char* hex = "0123456789ABCDEF";
  for (unsigned char c : generic) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  if (!generic.empty() && generic.front() == '/') return "file://" + out;
  return out;
}

void write_sarif_location(JsonWriter& w, const SourceLoc& loc, const std::string& path) {
  w.begin_object();
  w.key("physicalLocation").begin_object();
  const std::string& file = loc.valid() ? loc.file->path() : path;
  w.key("artifactLocation").begin_object().field("uri", sarif_uri(file));
  if (std::filesystem::path(file).is_relative()) w.field("uriBaseId", "%SRCROOT%");
  w.end_object();
  if (loc.valid()) {
    TextRange r = range_of(loc);
    w.key("region").begin_object();
    w.field("startLine", r.line).field("startColumn", r.column).field("endLine", r.end_line).field("endColumn", r.end_column);
    w.key("snippet").begin_object().field("text", std::string(loc.file->line_text(loc.line))).end_object();
    w.end_object();
  }
  w.end_object();
  w.end_object();
}

}  // namespace

void print_sarif(std::ostream& out, const std::string& command, const DiagnosticSink& diags, int exit_code) {
  // one rule per id, in order of first use; results name theirs by index too
  std::map<std::string, std::size_t> rule_index;
  std::vector<std::string> rules;
  for (const Diagnostic& d : diags.all()) {
    if (rule_index.emplace(rule_id(d), rules.size()).second) rules.push_back(rule_id(d));
  }
  JsonWriter w(out);
  w.begin_object();
  w.field("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
  w.field("version", "2.1.0");
  w.key("runs").begin_array().begin_object();
  w.key("tool").begin_object().key("driver").begin_object();
  w.field("name", "gshape").field("version", GSHAPE_VERSION).field("semanticVersion", GSHAPE_VERSION);
  w.key("rules").begin_array();
  for (const std::string& id : rules) {
    w.begin_object().field("id", id);
    std::string text = id == "gshape" ? "a problem gshape found in the file (syntax, encoding, analysis)"
                       : id == "gshape-file" ? "a file gshape could not read or parse"
                       : id == "unused-ignore" ? "a '# gshape: ignore' comment that suppresses nothing"
                                               : "shape constraint " + id + " (docs/rules.md)";
    w.key("shortDescription").begin_object().field("text", text).end_object();
    w.end_object();
  }
  w.end_array();
  w.end_object().end_object();  // driver, tool
  w.key("invocations").begin_array().begin_object();
  w.field("executionSuccessful", exit_code != 2).field("exitCode", exit_code);
  w.field("commandLine", "gshape " + command);
  w.end_object().end_array();
  w.key("results").begin_array();
  for (const Diagnostic& d : diags.all()) {
    w.begin_object();
    std::string id = rule_id(d);
    w.field("ruleId", id).field("ruleIndex", static_cast<uint64_t>(rule_index[id]));
    w.field("level", sarif_level(d.severity));
    std::string text = d.message;
    for (const DiagnosticNote& n : d.notes) {
      text.append("\n");
      if (n.loc.valid()) text.append(n.loc.str()).append(": ");
      text.append(note_kind_name(n.kind)).append(": ").append(n.message);
    }
    w.key("message").begin_object().field("text", text).end_object();
    w.key("locations").begin_array();
    if (d.loc.valid() || !path_of(d).empty()) write_sarif_location(w, d.loc, d.loc.valid() ? std::string() : d.path);
    w.end_array();
    std::vector<const DiagnosticNote*> located;
    for (const DiagnosticNote& n : d.notes) {
      if (n.loc.valid()) located.push_back(&n);
    }
    if (!located.empty()) {
      w.key("relatedLocations").begin_array();
      for (std::size_t i = 0; i < located.size(); ++i) {
        // a relatedLocation is a location object with an id and a message
        TextRange r = range_of(located[i]->loc);
        w.begin_object().field("id", static_cast<uint64_t>(i));
        w.key("physicalLocation").begin_object();
        const std::string& file = located[i]->loc.file->path();
        w.key("artifactLocation").begin_object().field("uri", sarif_uri(file));
        if (std::filesystem::path(file).is_relative()) w.field("uriBaseId", "%SRCROOT%");
        w.end_object();
        w.key("region").begin_object();
        w.field("startLine", r.line).field("startColumn", r.column).field("endLine", r.end_line).field("endColumn", r.end_column);
        w.end_object().end_object();
        w.key("message").begin_object().field("text", located[i]->message).end_object();
        w.end_object();
      }
      w.end_array();
    }
    w.end_object();
  }
  w.end_array();
  w.field("columnKind", "unicodeCodePoints");
  w.end_object().end_array();  // run, runs
  w.end_object();
  out << "\n";
}

std::string github_escape_data(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '%') out += "%25";
    else if (c == '\r') out += "%0D";
    else if (c == '\n') out += "%0A";
    else out += c;
  }
  return out;
}

std::string github_escape_property(std::string_view s) {
  std::string out;
  for (char c : github_escape_data(s)) {
    if (c == ':') out += "%3A";
    else if (c == ',') out += "%2C";
    else out += c;
  }
  return out;
}

void print_github_annotations(std::ostream& out, const DiagnosticSink& diags) {
  for (const Diagnostic& d : diags.all()) {
    const char* command = d.severity == Severity::Error ? "error" : d.severity == Severity::Warning ? "warning" : "notice";
    std::vector<std::string> props;
    const std::string& path = path_of(d);
    if (!path.empty()) props.push_back("file=" + github_escape_property(path));
    if (d.loc.valid()) {
      TextRange r = range_of(d.loc);
      props.push_back("line=" + std::to_string(r.line));
      props.push_back("col=" + std::to_string(r.column));
      props.push_back("endLine=" + std::to_string(r.end_line));
      // GitHub's endColumn is the last column of the annotation (inclusive)
      if (r.end_line == r.line) props.push_back("endColumn=" + std::to_string(std::max(r.column, r.end_column - 1)));
    }
    props.push_back("title=" + github_escape_property(d.tag.empty() ? std::string("gshape") : d.tag));
    std::string message = d.message + (d.tag.empty() ? "" : " [" + d.tag + "]");
    for (const DiagnosticNote& n : d.notes) {
      message.append("\n").append(note_kind_name(n.kind)).append(": ");
      if (n.loc.valid()) message.append(n.loc.str()).append(": ");
      message.append(n.message);
    }
    out << "::" << command;
    for (std::size_t i = 0; i < props.size(); ++i) out << (i == 0 ? " " : ",") << props[i];
    out << "::" << github_escape_data(message) << "\n";
  }
}

}  // namespace gshape::cli
