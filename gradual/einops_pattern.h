// einops patterns ("b c (h p1) (w p2) -> b (h w) (p1 p2 c)") parsed into the
// axes of each side, as einops itself reads them: names, parenthesised
// groups (their product is one axis), `...` (any number of axes), and
// anonymous axes (`1`, `()`, or a number on the output of `repeat`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gshape::gradual {

struct EinopsAxis {
  std::string name;              // empty for an anonymous axis
  int64_t length = 0;            // an anonymous axis's length (1 for `1`)
  bool ellipsis = false;         // `...`
  bool is_name() const { return !ellipsis && !name.empty(); }
};

// One axis of a side: a single axis, or a group `(a b)` (`()` is empty: 1).
struct EinopsElement {
  std::vector<EinopsAxis> parts;
  bool group = false;
  bool is_ellipsis() const { return !group && parts.size() == 1 && parts[0].ellipsis; }
};

struct EinopsSide {
  std::vector<EinopsElement> elements;
  bool has_ellipsis = false;
  std::vector<std::string> names() const;  // every named axis, in order
};

struct EinopsPattern {
  EinopsSide left, right;
};

// The parsed pattern, or the reason einops rejects it (`error`).
struct EinopsParse {
  std::optional<EinopsPattern> pattern;
  std::string error;
};

EinopsParse parse_einops_pattern(std::string_view text);

}  // namespace gshape::gradual
