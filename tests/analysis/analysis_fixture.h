// Runs the shape analysis on small programs written into a temporary folder
// (loaded with load_project, so module names and import order are the real
// ones), and finds obligations and inferred shapes by line.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/project.h"
#include "gradual/analysis.h"

namespace gshape::testing {

// The 1-based line of the first line of `source` that contains `marker`.
inline int line_of(const std::string& source, const std::string& marker) {
  int line = 1;
  std::size_t start = 0;
  while (start <= source.size()) {
    std::size_t end = source.find('\n', start);
    std::string text = source.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (text.find(marker) != std::string::npos) return line;
    if (end == std::string::npos) break;
    start = end + 1;
    ++line;
  }
  throw std::runtime_error("marker not found: " + marker);
}

class Analysed {
 public:
  // `files`: relative path → source. Every file is analysed.
  explicit Analysed(const std::map<std::string, std::string>& files, gradual::AnalysisOptions options = with_shapes()) {
    std::string pattern = (std::filesystem::temp_directory_path() / "gshape-analysis-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
    for (const auto& [rel, text] : files) {
      std::filesystem::path p = dir_ / rel;
      std::filesystem::create_directories(p.parent_path());
      std::ofstream(p, std::ios::binary) << text;
    }
    project_ = std::make_unique<Project>(load_project({dir_.string()}, diags_));
    result_ = gradual::analyse_project(*project_, options);
  }
  explicit Analysed(const std::string& source, gradual::AnalysisOptions options = with_shapes())
      : Analysed(std::map<std::string, std::string>{{"main.py", source}}, options) {}
  ~Analysed() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  Analysed(const Analysed&) = delete;
  Analysed& operator=(const Analysed&) = delete;

  static gradual::AnalysisOptions with_shapes() {
    gradual::AnalysisOptions o;
    o.record_shapes = true;
    return o;
  }

  const gradual::AnalysisResult& result() const { return result_; }
  const DiagnosticSink& load_diagnostics() const { return diags_; }

  // Merged obligations on `line` of `file` (all tags when `tag` is empty).
  std::vector<const gradual::AnalysedObligation*> at(int line, const std::string& tag = {},
                                                     const std::string& file = "main.py") const {
    std::vector<const gradual::AnalysedObligation*> out;
    for (const auto& a : result_.obligations) {
      if (static_cast<int>(a.ob.loc.line) != line || !ends_with(a.ob.loc.file->path(), file)) continue;
      if (!tag.empty() && a.ob.tag != tag) continue;
      out.push_back(&a);
    }
    return out;
  }

  // The outcome of the single obligation `tag` on `line`; fails the test otherwise.
  gradual::Outcome outcome(int line, const std::string& tag, const std::string& file = "main.py") const {
    auto list = at(line, tag, file);
    if (list.size() != 1) throw std::runtime_error("expected one " + tag + " obligation on line " + std::to_string(line) +
                                                   ", found " + std::to_string(list.size()) + "\n" + dump());
    return list.front()->outcome;
  }

  // The most severe outcome of the `tag` obligations on `line` (error, warning,
  // deferred, proven); fails the test when there is none.
  gradual::Outcome worst(int line, const std::string& tag, const std::string& file = "main.py") const {
    auto list = at(line, tag, file);
    if (list.empty()) throw std::runtime_error("no " + tag + " obligation on line " + std::to_string(line) + "\n" + dump());
    auto severity = [](gradual::Outcome o) {
      switch (o) {
        case gradual::Outcome::Error: return 3;
        case gradual::Outcome::Warning: return 2;
        case gradual::Outcome::Deferred: return 1;
        case gradual::Outcome::Proven: return 0;
      }
      return 0;
    };
    gradual::Outcome w = list.front()->outcome;
    for (const auto* a : list)
      if (severity(a->outcome) > severity(w)) w = a->outcome;
    return w;
  }

  std::size_t count(gradual::Outcome o) const { return result_.count(o); }

  // The inferred shapes of the expression written `text` on `line` ("" when none).
  std::string shape(int line, const std::string& text, const std::string& file = "main.py") const {
    for (const auto& r : result_.shapes) {
      if (static_cast<int>(r.loc.line) != line || !ends_with(r.loc.file->path(), file)) continue;
      std::string src = r.loc.file->text().substr(r.loc.begin, r.loc.end - r.loc.begin);
      if (src != text) continue;
      std::string out;
      for (std::size_t i = 0; i < r.shapes.size(); ++i) out += (i ? " | " : "") + r.shapes[i];
      return out;
    }
    return {};
  }

  // Every obligation, one line each (for failure messages).
  std::string dump() const {
    std::string out;
    for (const auto& a : result_.obligations) {
      out += a.ob.loc.str() + " " + gradual::outcome_name(a.outcome) + " " + a.ob.tag + ": " + a.ob.render_message() + "\n";
    }
    return out;
  }

 private:
  static bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
  }

  std::filesystem::path dir_;
  DiagnosticSink diags_;
  std::unique_ptr<Project> project_;
  gradual::AnalysisResult result_;
};

}  // namespace gshape::testing
