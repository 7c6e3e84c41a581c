// The nesting budget of instrumented code. Every wrapper puts its operand one
// or two brackets deeper (`_gshape_checks.stash(S, K, a) + ...`), and nested
// sites nest their wrappers: `a + b + ... + b` with 201 deferred `+` put `a`
// 201 calls deep, past the 200 nested brackets CPython's tokenizer accepts
// (`SyntaxError: too many nested parentheses`). Its parser has a stack of
// 6000 entries too, of which a bracket level costs about 28 — so 200 levels
// leave almost nothing for the rest of an expression — and its compiler
// stops near 3000 AST levels.
//
// So the rewriter keeps every point of the instrumented text within
// kMaxBracketDepth brackets (the original's plus those its wrappers add),
// and never wraps code the front end cut at its depth limit (how deep that
// goes is unknown). A site whose wrappers would break either rule is not
// instrumented, outermost sites first kept: the deeper operations run
// unchecked, and the outcome says so (SiteOutcome::nested_too_deep, the
// report's reason, a note from `instrument` and `run`).
//
// With the limit at 100 the brackets take at most 2800 parser entries, and
// the rest of the expression (at most 400 IR levels, frontend/README.md,
// a few entries each) fits in the other 3200.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gshape::codegen {

inline constexpr uint32_t kMaxBracketDepth = 100;
// CPython's own limit (tokenizer.c MAXLEVEL), for messages.
inline constexpr uint32_t kPythonMaxBracketDepth = 200;

// How many brackets (`(`, `[`, `{`) are open at each byte of Python source,
// as CPython's tokenizer counts them: not in comments or strings; in an
// f-string's `{…}` field, the field's brace and the brackets inside it
// count on top of the string's level (CPython 3.12 counts them so; 3.11
// parses a field alone, from level 1, which this never undercounts). A
// bracket byte counts itself: `(` is at the level it opens.
class BracketDepths {
 public:
  explicit BracketDepths(std::string_view text);
  // The level at `offset` (0 past the end).
  uint32_t at(uint32_t offset) const;
  // The deepest level of the whole text.
  uint32_t max() const { return max_; }
  // The deepest level in [begin, end) (0 for an empty range). Not thread-safe:
  // the first call builds a table.
  uint32_t max_in(uint32_t begin, uint32_t end) const;

 private:
  static constexpr uint32_t kBlockBits = 6;  // 64-byte blocks
  std::vector<uint8_t> depth_;               // per byte, saturated at 255
  uint32_t max_ = 0;
  // sparse_[k][b]: the deepest level in blocks b .. b + 2^k - 1 (built on demand)
  mutable std::vector<std::vector<uint8_t>> sparse_;
};

// One wrapper as the budget sees it: where it goes and how many brackets it
// adds.
struct WrapperDepth {
  uint32_t begin = 0;  // the wrapped range [begin, end)
  uint32_t end = 0;
  uint32_t inner = 1;  // levels the wrapper puts around the range
  uint32_t own = 1;    // the deepest level of its own text, where it stands
  std::size_t site = 0;
};

// Why a site cannot be instrumented within the budget; reached = 0 when it can.
struct DepthVerdict {
  uint32_t reached = 0;      // the bracket depth its check would reach (0: fine, or too_deep)
  bool holds_too_deep = false;  // an operand holds code the front end cut at its depth limit
};

// The sites (0 .. sites - 1) whose wrappers do not fit: `wrappers` sorted
// as the rewriter inserts them (by begin, then the outer one of equal
// ranges first), their ranges nested or disjoint; `too_deep` the ranges of
// the front end's cut code. Outer wrappers are decided first, so when a
// chain does not fit its outermost operations keep their checks.
std::vector<DepthVerdict> sites_over_budget(std::string_view text, const std::vector<WrapperDepth>& wrappers,
                                            std::size_t sites,
                                            const std::vector<std::pair<uint32_t, uint32_t>>& too_deep,
                                            uint32_t budget = kMaxBracketDepth);

// The reason a site that does not fit gives (SiteOutcome::problem); it
// starts with kNestedTooDeep.
std::string nesting_problem(const DepthVerdict& verdict);
inline constexpr const char* kNestedTooDeep = "nested too deep to check at run time";

struct SiteOutcome;

// One line per source line holding sites left unchecked for their nesting:
// `PATH:LINE: note: N operations on this line are not checked at run time:
// nested too deep ...`. "" when there is none.
std::string nesting_notes(const std::string& display_path, const std::vector<SiteOutcome>& sites);

}  // namespace gshape::codegen
