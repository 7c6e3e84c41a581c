#include "cli/review_triage.h"

#include <algorithm>
#include <regex>
#include <sstream>
#include <tuple>

#include "cli/path_glob.h"

namespace gshape::cli {

namespace {

// The top-level conjuncts of a readable constraint ("a >= 0 and b >= 0").
std::vector<std::string> conjuncts(const std::string& c) {
  std::vector<std::string> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    if (c[i] == '(' || c[i] == '[') ++depth;
    if (c[i] == ')' || c[i] == ']') --depth;
    if (depth == 0 && c.compare(i, 5, " and ") == 0) {
      out.push_back(c.substr(start, i - start));
      start = i + 5;
      i += 4;
    }
  }
  out.push_back(c.substr(start));
  return out;
}

bool reads_a_tensor(const std::string& term) {
  for (const char* s : {".size(", ".dim()", ".numel()", ".shape", "'s layout", ".stride("}) {
    if (term.find(s) != std::string::npos) return true;
  }
  return false;
}

bool all_conjuncts(const std::string& constraint, const std::regex& atom, bool tensor_terms_allowed) {
  if (constraint.empty()) return false;
  for (const std::string& c : conjuncts(constraint)) {
    std::smatch m;
    if (!std::regex_match(c, m, atom)) return false;
    if (!tensor_terms_allowed && reads_a_tensor(m[1].str() + " " + m[2].str())) return false;
  }
  return true;
}

std::vector<std::string> split_list(const std::vector<std::string>& values) {
  std::vector<std::string> out;
  for (const std::string& v : values) {
    std::stringstream list(v);
    std::string item;
    while (std::getline(list, item, ',')) {
      if (!item.empty()) out.push_back(item);
    }
  }
  return out;
}

}  // namespace

std::string trivia_kind(const ReviewEntry& e) {
  if (e.status != "deferred" || e.outcome == "warning") return {};
  // n >= 0, n >= -1, n >= 1, n > 0 over arguments (no tensor size)
  static const std::regex sign(R"((.+) (?:>= -?[01]|> 0)|(?:-?[01] <=|0 <) (.+))");
  if (all_conjuncts(e.constraint, sign, false)) return "sign";
  static const std::regex rank0(R"((\S+\.dim\(\)) >= 1|1 <= (\S+\.dim\(\)))");
  if (all_conjuncts(e.constraint, rank0, true)) return "rank0";
  return {};
}

std::optional<std::string> ReviewFilter::read(const ParsedArgs& args, ReviewFilter& out) {
  for (const std::string& s : split_list(args.get_all("status"))) {
    if (s != "proven" && s != "refuted" && s != "deferred") {
      return "unknown --status '" + s + "' (expected refuted, deferred or proven, comma-separated)";
    }
    out.statuses.insert(s);
  }
  out.tags = split_list(args.get_all("tag"));
  out.files = split_list(args.get_all("file"));
  out.all = args.has("all");
  out.verbose = args.has("verbose");
  return std::nullopt;
}

bool ReviewFilter::selects(const ReviewEntry& e) const {
  if (!statuses.empty() && !statuses.count(e.status)) return false;
  if (!tags.empty() && std::none_of(tags.begin(), tags.end(), [&](const std::string& t) { return glob_match(t, e.tag); })) {
    return false;
  }
  if (!files.empty()) {
    bool any = false;
    for (const std::string& f : files) {
      // a glob over the path as shown, or over its trailing folders ("vit.py", "models/*.py")
      PathPatterns p;
      p.add(f, ".");
      if (glob_match(f, e.path) || path_glob_matches("**/" + f, e.path) || p.matches(e.path)) {
        any = true;
        break;
      }
    }
    if (!any) return false;
  }
  return true;
}

Triage triage_review(const Review& review, const ReviewFilter& filter) {
  Triage t;
  for (const ReviewEntry& e : review.entries) {
    if (!filter.selects(e)) {
      ++t.filtered_out;
      continue;
    }
    if (e.status == "proven") {
      // asked for by --all or by --status=proven
      if (filter.all || filter.statuses.count("proven")) t.proven.push_back(&e);
      else ++t.hidden_proven;
      continue;
    }
    if (!filter.verbose) {
      if (e.suppressed) {
        ++t.hidden_suppressed;
        continue;
      }
      std::string kind = trivia_kind(e);
      if (kind == "sign") {
        ++t.hidden_sign;
        continue;
      }
      if (kind == "rank0") {
        ++t.hidden_rank0;
        continue;
      }
    }
    (e.status == "refuted" ? t.refuted : t.deferred).push_back(&e);
  }
  auto order = [](std::vector<const ReviewEntry*>& v) {
    std::stable_sort(v.begin(), v.end(), [](const ReviewEntry* a, const ReviewEntry* b) {
      return std::tie(a->path, a->function_line, a->function, a->line, a->column, a->tag) <
             std::tie(b->path, b->function_line, b->function, b->line, b->column, b->tag);
    });
  };
  order(t.refuted);
  order(t.deferred);
  order(t.proven);
  return t;
}

}  // namespace gshape::cli
