#include "gradual/einops_pattern.h"

#include <cctype>
#include <set>

namespace gshape::gradual {

std::vector<std::string> EinopsSide::names() const {
  std::vector<std::string> out;
  for (const EinopsElement& e : elements)
    for (const EinopsAxis& a : e.parts)
      if (a.is_name()) out.push_back(a.name);
  return out;
}

namespace {

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// One side of the arrow; `error` set when einops would reject it.
EinopsSide parse_side(std::string_view s, std::string& error) {
  EinopsSide side;
  std::set<std::string> seen;
  bool in_group = false;
  EinopsElement group;
  auto add = [&](EinopsAxis a) {
    if (a.ellipsis) {
      if (side.has_ellipsis) error = "'...' appears twice on one side";
      side.has_ellipsis = true;
    } else if (a.is_name() && !seen.insert(a.name).second) {
      error = "axis '" + a.name + "' appears twice on one side";
    }
    if (in_group) {
      group.parts.push_back(std::move(a));
    } else {
      EinopsElement e;
      e.parts.push_back(std::move(a));
      side.elements.push_back(std::move(e));
    }
  };
  std::size_t i = 0;
  while (i < s.size() && error.empty()) {
    char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '(') {
      if (in_group) error = "nested parentheses";
      in_group = true;
      group = EinopsElement{};
      group.group = true;
      ++i;
    } else if (c == ')') {
      if (!in_group) error = "unbalanced parentheses";
      in_group = false;
      side.elements.push_back(std::move(group));
      ++i;
    } else if (s.substr(i, 3) == "...") {
      EinopsAxis a;
      a.ellipsis = true;
      add(std::move(a));
      i += 3;
    } else if (identifier_char(c)) {
      std::size_t j = i;
      while (j < s.size() && identifier_char(s[j])) ++j;
      std::string token(s.substr(i, j - i));
      EinopsAxis a;
      if (std::isdigit(static_cast<unsigned char>(token[0]))) {
        for (char d : token)
          if (!std::isdigit(static_cast<unsigned char>(d))) error = "axis name '" + token + "' starts with a digit";
        if (error.empty()) {
          a.length = token.size() > 18 ? -1 : std::stoll(token);
          if (a.length < 1) error = "anonymous axis '" + token + "' is not a positive length";
        }
      } else if (token == "_") {
        error = "'_' is not an axis name";
      } else {
        a.name = token;
      }
      add(std::move(a));
      i = j;
    } else {
      error = std::string("unexpected character '") + c + "'";
    }
  }
  if (error.empty() && in_group) error = "unbalanced parentheses";
  return side;
}

}  // namespace

EinopsParse parse_einops_pattern(std::string_view text) {
  EinopsParse out;
  std::size_t arrow = text.find("->");
  if (arrow == std::string_view::npos || text.find("->", arrow + 2) != std::string_view::npos) {
    out.error = "the pattern needs exactly one '->'";
    return out;
  }
  EinopsPattern p;
  p.left = parse_side(text.substr(0, arrow), out.error);
  if (out.error.empty()) p.right = parse_side(text.substr(arrow + 2), out.error);
  if (out.error.empty()) {
    for (const EinopsElement& e : p.left.elements)
      if (e.group)
        for (const EinopsAxis& a : e.parts)
          if (a.ellipsis) out.error = "'...' inside parentheses on the left";
    if (!p.left.has_ellipsis && p.right.has_ellipsis) out.error = "'...' on the right but not on the left";
  }
  if (out.error.empty()) out.pattern = std::move(p);
  return out;
}

}  // namespace gshape::gradual
