// Matrix products: matmul (every rank case) and `@`, mm, bmm, addmm,
// F.linear, einsum; dot, mv, outer/ger, baddbmm, cdist, cosine_similarity,
// trace, addmv, addbmm, kron, cross, tensordot.
#include <algorithm>
#include <cctype>
#include <map>

#include "gradual/rules.h"

namespace gshape::gradual {
namespace {

std::vector<IntTerm> slice(const std::vector<IntTerm>& v, std::size_t begin, std::size_t end) {
  return std::vector<IntTerm>(v.begin() + static_cast<std::ptrdiff_t>(begin), v.begin() + static_cast<std::ptrdiff_t>(end));
}

// matmul on operands of known rank >= 1, given as size terms in axis order:
// the inner sizes agree (`inner_tag`) and the batch axes broadcast
// (`batch_tag`). Result: batch + [n if a is >= 2-d] + [p if b is >= 2-d].
std::vector<IntTerm> matmul_known(RuleContext& ctx, const std::string& inner_tag, const std::string& batch_tag,
                                  const std::vector<IntTerm>& a, const std::vector<IntTerm>& b, const ShapeHole& ha,
                                  const ShapeHole& hb) {
  std::size_t ra = a.size(), rb = b.size();
  const IntTerm& m1 = a[ra - 1];
  const IntTerm& m2 = rb > 1 ? b[rb - 2] : b[0];
  if (!inner_tag.empty()) {
    Message m;
    m << "matmul: the last dimension of the first operand (" << m1 << ") must match the "
      << (rb > 1 ? "second-to-last" : "only") << " dimension of the second operand (" << m2 << "); shapes " << ha
      << " and " << hb;
    ctx.require(inner_tag, eq(m1, m2), m);
  }
  std::vector<IntTerm> batch1 = ra > 2 ? slice(a, 0, ra - 2) : std::vector<IntTerm>{};
  std::vector<IntTerm> batch2 = rb > 2 ? slice(b, 0, rb - 2) : std::vector<IntTerm>{};
  std::vector<IntTerm> out = broadcast_terms(ctx, batch_tag, batch1, batch2);
  if (ra > 1) out.push_back(a[ra - 2]);
  if (rb > 1) out.push_back(b[rb - 1]);
  return out;
}

// `small` must expand to `target` (rank <= and each axis equal or 1).
void require_expandable(RuleContext& ctx, const std::string& tag, const Arg& small_arg,
                        const std::vector<IntTerm>& target) {
  if (!small_arg.is_tensor() || !small_arg.shape().rank_known()) return;
  std::vector<IntTerm> small = sizes_from_end(ctx, small_arg);
  Message mr;
  mr << small_arg.role << " of shape " << ctx.shape_hole(small_arg) << " cannot be expanded to ";
  append_list(mr, target);
  if (small.size() > target.size()) {
    ctx.require(tag, le(ctx.rank(small_arg), static_cast<int64_t>(target.size())), mr);
    return;
  }
  for (std::size_t k = 0; k < small.size(); ++k) {
    const IntTerm& y = small[small.size() - 1 - k];
    const IntTerm& x = target[target.size() - 1 - k];
    ctx.require(tag, eq(y, x) || eq(y, 1), mr);
  }
}

// The inner sizes of two matrices agree (mm, addmm): `tag` is `<op>_c3`.
void require_mm_inner(RuleContext& ctx, const std::string& tag, const Arg& a, const Arg& b) {
  Message m;
  m << "mat1 and mat2 shapes cannot be multiplied (" << ctx.size(a, 0) << "x" << ctx.size(a, 1) << " and "
    << ctx.size(b, 0) << "x" << ctx.size(b, 1) << ")";
  ctx.require(tag, eq(ctx.size(a, 1), ctx.size(b, 0)), m);
}

// Both batches of matrices are 3-d (bmm, baddbmm, addbmm): `batch1_tag` and
// `batch2_tag` (`<op>_c1`, `<op>_c2`). True when either is refuted.
bool require_3d_batches(RuleContext& ctx, const std::string& batch1_tag, const std::string& batch2_tag, const Arg& a,
                        const Arg& b) {
  Message m1, m2;
  m1 << "batch1 must be a 3D tensor, got " << ctx.rank(a) << "D";
  m2 << "batch2 must be a 3D tensor, got " << ctx.rank(b) << "D";
  bool bad = ctx.require(batch1_tag, eq(ctx.rank(a), 3), m1) == Status::Refuted;
  return (ctx.require(batch2_tag, eq(ctx.rank(b), 3), m2) == Status::Refuted) || bad;
}

// bmm's size checks (bmm, baddbmm): the batch sizes agree (`batch_tag`,
// `<op>_c3`) and the inner sizes agree (`inner_tag`, `<op>_c4`).
void require_bmm_sizes(RuleContext& ctx, const std::string& batch_tag, const std::string& inner_tag, const Arg& a,
                       const Arg& b) {
  Message m;
  m << "expected size for first two dimensions of batch2 tensor to be: [" << ctx.size(a, 0) << ", " << ctx.size(a, 2)
    << "] but got: [" << ctx.size(b, 0) << ", " << ctx.size(b, 1) << "]";
  ctx.require(batch_tag, eq(ctx.size(a, 0), ctx.size(b, 0)), m);
  ctx.require(inner_tag, eq(ctx.size(a, 2), ctx.size(b, 1)), m);
}

// A matrix times a vector (mv, addmv): the matrix's columns are the vector's
// length (`tag`, `<op>_c2`).
void require_mv_inner(RuleContext& ctx, const std::string& tag, const Arg& a, const Arg& v) {
  Message m;
  m << "size mismatch, got " << ctx.size(a, 0) << "x" << ctx.size(a, 1) << " and " << ctx.size(v, 0);
  ctx.require(tag, eq(ctx.size(a, 1), ctx.size(v, 0)), m);
}

// matmul's result when a rank is unknown: its last axes, as far as the
// operands' known last axes fix them. A 1-d `other` drops input's last
// axis; an `other` with two or more axes ends the result with its columns,
// after input's rows when input has two or more axes.
Shape matmul_partial_result(const Shape& a, const Shape& b) {
  const std::vector<Dim>& ka = a.known_suffix();
  const std::vector<Dim>& kb = b.known_suffix();
  if (b.rank_known() && b.rank() == 1) {
    if (ka.empty()) return Shape::unknown();
    return Shape::unknown_with_suffix(std::vector<Dim>(ka.begin(), ka.end() - 1));
  }
  if (kb.size() < 2) return Shape::unknown();  // other may be 1-d: the result's end is unknown
  std::vector<Dim> out;
  if (ka.size() >= 2) out.push_back(ka[ka.size() - 2]);
  out.push_back(kb.back());
  return Shape::unknown_with_suffix(std::move(out));
}

Value rule_matmul(RuleContext& ctx) {
  Arg a = ctx.tensor("input");
  Arg b = ctx.tensor("other");
  Message m1;
  m1 << "both arguments to matmul need to be at least 1D, but they are " << ctx.rank(a) << "D and " << ctx.rank(b)
     << "D";
  if (ctx.require("matmul_c1", ge(ctx.rank(a), 1) && ge(ctx.rank(b), 1), m1) == Status::Refuted)  // matmul_c1
    return unknown_tensor();
  if (!a.shape().rank_known() || !b.shape().rank_known()) {
    // the inner sizes, whatever the ranks: (size a -1) against b's -2 (or only) axis
    IntTerm m2 = ite(eq(ctx.rank(b), 1), ctx.size(b, 0), ctx.size(b, -2));
    Message m;
    m << "matmul: the last dimension of the first operand (" << ctx.size(a, -1)
      << ") must match the matching dimension of the second operand (" << m2 << ")";
    ctx.require("matmul_c2", eq(ctx.size(a, -1), m2), m);  // matmul_c2
    return Value::tensor(matmul_partial_result(a.shape(), b.shape()));
  }
  // matmul_c2 (inner sizes), matmul_c3 (batch broadcast)
  return Value::tensor(shape_of_terms(matmul_known(ctx, "matmul_c2", "matmul_c3", ctx.sizes(a), ctx.sizes(b),
                                                   ctx.shape_hole(a), ctx.shape_hole(b))));
}

Value rule_mm(RuleContext& ctx) {
  Arg a = ctx.tensor("input");
  Arg b = ctx.tensor("mat2");
  Message m1, m2;
  m1 << "self must be a matrix, got a " << ctx.rank(a) << "-D tensor";
  m2 << "mat2 must be a matrix, got a " << ctx.rank(b) << "-D tensor";
  bool bad = ctx.require("mm_c1", eq(ctx.rank(a), 2), m1) == Status::Refuted;  // mm_c1
  bad = (ctx.require("mm_c2", eq(ctx.rank(b), 2), m2) == Status::Refuted) || bad;  // mm_c2
  if (bad) return unknown_tensor();
  require_mm_inner(ctx, "mm_c3", a, b);  // mm_c3
  return Value::tensor(Shape{ctx.size(a, 0).dim(), ctx.size(b, 1).dim()});
}

Value rule_bmm(RuleContext& ctx) {
  Arg a = ctx.tensor("input");
  Arg b = ctx.tensor("mat2");
  if (require_3d_batches(ctx, "bmm_c1", "bmm_c2", a, b)) return unknown_tensor();  // bmm_c1, bmm_c2
  require_bmm_sizes(ctx, "bmm_c3", "bmm_c4", a, b);  // bmm_c3, bmm_c4
  return Value::tensor(Shape{ctx.size(a, 0).dim(), ctx.size(a, 1).dim(), ctx.size(b, 2).dim()});
}

Value rule_addmm(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg a = ctx.tensor("mat1");
  Arg b = ctx.tensor("mat2");
  Message m1, m2;
  m1 << "mat1 must be a matrix, got " << ctx.rank(a) << "-D tensor";
  m2 << "mat2 must be a matrix, got " << ctx.rank(b) << "-D tensor";
  bool bad = ctx.require("addmm_c1", eq(ctx.rank(a), 2), m1) == Status::Refuted;  // addmm_c1
  bad = (ctx.require("addmm_c2", eq(ctx.rank(b), 2), m2) == Status::Refuted) || bad;  // addmm_c2
  if (bad) return unknown_tensor();
  require_mm_inner(ctx, "addmm_c3", a, b);  // addmm_c3
  std::vector<IntTerm> out{ctx.size(a, 0), ctx.size(b, 1)};
  require_expandable(ctx, "addmm_c4", input, out);  // addmm_c4
  return Value::tensor(shape_of_terms(out));
}

// F.linear(input, weight, bias) as torch 1.13's at::linear computes it:
// a 2-d input with a bias is addmm(bias, input, weight.t()); a (contiguous)
// 3-d input with a bias is addmm on the input viewed as [n0*n1, in];
// otherwise matmul(input, weight.t()), then bias added in place.
// `linear_c2` input has an axis, `linear_c3` weight is 1-d or 2-d (2-d on
// the addmm paths), `linear_c1` input's last axis is in_features,
// `linear_c4` the bias expands to the output.
Value rule_linear(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg weight = ctx.tensor("weight");
  Arg bias = ctx.arg("bias");
  bool has_bias = !bias.is_none();
  Message m2;
  m2 << "linear needs an input with at least one dimension, got shape " << ctx.shape_hole(input);
  bool bad = ctx.require("linear_c2", ge(ctx.rank(input), 1), m2) == Status::Refuted;  // linear_c2
  BoolTerm addmm_path = has_bias ? (eq(ctx.rank(input), 2) || eq(ctx.rank(input), 3)) : BoolTerm(false);
  Message m3;
  m3 << "linear needs a 2-D weight (1-D only without a bias or for other input ranks), got shape "
     << ctx.shape_hole(weight);
  BoolTerm weight_ok = ge(ctx.rank(weight), 1) && le(ctx.rank(weight), 2) && implies(addmm_path, eq(ctx.rank(weight), 2));
  bad = (ctx.require("linear_c3", weight_ok, m3) == Status::Refuted) || bad;  // linear_c3
  if (bad) return unknown_tensor();
  Message m1;
  m1 << "linear expects in_features " << ctx.size(weight, -1) << " but the input's last dimension is "
     << ctx.size(input, -1);
  ctx.require("linear_c1", eq(ctx.size(input, -1), ctx.size(weight, -1)), m1);  // linear_c1
  if (!weight.shape().rank_known()) return unknown_tensor();
  if (!input.shape().rank_known()) {
    // input @ weight.t() (the bias is added in place): [*, out_features],
    // or input's shape without its last axis for a 1-d weight
    std::vector<Dim> suffix = input.shape().known_suffix();
    if (!suffix.empty()) suffix.pop_back();
    if (weight.shape().rank() == 2) suffix.push_back(weight.shape()[0]);
    return Value::tensor(Shape::unknown_with_suffix(std::move(suffix)));
  }
  std::vector<IntTerm> in = ctx.sizes(input);
  std::vector<IntTerm> wt = ctx.sizes(weight);
  std::reverse(wt.begin(), wt.end());  // weight.t()
  std::vector<IntTerm> out = matmul_known(ctx, "", "linear_c4", in, wt, ctx.shape_hole(input), ctx.shape_hole(weight));
  if (!has_bias) return Value::tensor(shape_of_terms(out));
  Arg b = ctx.as_tensor(bias);
  if (in.size() == 3) {
    require_expandable(ctx, "linear_c4", b, {in[0] * in[1], out.back()});  // linear_c4 (addmm on the 2-d view)
  } else {
    require_expandable(ctx, "linear_c4", b, out);  // linear_c4
  }
  return Value::tensor(shape_of_terms(out));
}

// ------------------------------------------------------------------ einsum

// One side of an einsum equation's term: its labels and where "..." sits.
struct EinsumTerm {
  std::vector<char> labels;
  int ellipsis_at = -1;  // index in labels before which "..." stands; -1: none
};

// Parses "ij,jk->ik" (spaces ignored). False when malformed.
bool parse_einsum(const std::string& eq, std::vector<EinsumTerm>& inputs, std::optional<EinsumTerm>& output) {
  std::string lhs = eq, rhs;
  std::size_t arrow = eq.find("->");
  if (arrow != std::string::npos) {
    lhs = eq.substr(0, arrow);
    rhs = eq.substr(arrow + 2);
  }
  auto parse_term = [](const std::string& text, EinsumTerm& term) {
    for (std::size_t i = 0; i < text.size(); ++i) {
      char ch = text[i];
      if (ch == ' ') continue;
      if (ch == '.') {
        if (term.ellipsis_at >= 0 || text.compare(i, 3, "...") != 0) return false;
        term.ellipsis_at = static_cast<int>(term.labels.size());
        i += 2;
        continue;
      }
      if (!std::isalpha(static_cast<unsigned char>(ch))) return false;
      term.labels.push_back(ch);
    }
    return true;
  };
  std::size_t start = 0;
  while (true) {
    std::size_t comma = lhs.find(',', start);
    EinsumTerm term;
    if (!parse_term(lhs.substr(start, comma == std::string::npos ? std::string::npos : comma - start), term)) return false;
    inputs.push_back(term);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  if (arrow != std::string::npos) {
    EinsumTerm term;
    if (!parse_term(rhs, term)) return false;
    output = term;
  }
  return true;
}

// torch's label order for the implicit output: A-Z, then a-z.
int label_rank(char c) { return std::isupper(static_cast<unsigned char>(c)) ? c - 'A' : 26 + (c - 'a'); }

// torch.einsum(equation, *operands): `einsum_c1` the equation is well
// formed, `einsum_c2` one operand per input term, `einsum_c3` each operand's
// rank fits its term, `einsum_c4` a label repeated within an operand has
// equal sizes, `einsum_c5` the sizes of one label across operands (and the
// "..." axes) broadcast, `einsum_c6` output labels appear in the input and
// at most once.
Value einsum_of(RuleContext& ctx, const std::string& equation, std::vector<Arg> ops);

Value rule_einsum(RuleContext& ctx) {
  Arg eq_arg = ctx.arg("equation");
  if (!eq_arg.value.is_str() || !eq_arg.value.as_str()) throw NotModelled("einsum's equation is not a constant string");
  std::string equation = *eq_arg.value.as_str();
  std::vector<Arg> ops = ctx.elements(ctx.arg("operands"));
  if (ops.size() == 1 && ops[0].value.is_sequence()) ops = ctx.elements(ops[0]);
  return einsum_of(ctx, equation, std::move(ops));
}

// einops.einsum(*tensors, pattern): the pattern names axes with words
// ("b h i d, b h j d -> b h i j"); einops renames them to letters and calls
// torch.einsum, so the requirements are torch.einsum's on that equation.
Value rule_einops_einsum(RuleContext& ctx) {
  std::vector<Arg> args = ctx.elements(ctx.arg("tensors_and_pattern"));
  if (args.empty() || !args.back().value.is_str() || !args.back().value.as_str())
    throw NotModelled("einops.einsum's pattern is not a constant string");
  const std::string pattern = *args.back().value.as_str();
  args.pop_back();
  if (pattern.find("->") == std::string::npos) throw NotModelled("einops.einsum without '->'");
  std::map<std::string, char> letter;
  std::string equation;
  std::string word;
  auto flush = [&]() {
    if (word.empty()) return;
    if (word == "...") {
      equation += "...";
    } else if (word.find('.') != std::string::npos) {
      throw NotModelled("einops.einsum pattern with '" + word + "'");  // einops rejects it
    } else {
      auto it = letter.find(word);
      if (it == letter.end()) {
        std::size_t k = letter.size();
        if (k >= 52) throw NotModelled("einops.einsum with more than 52 axis names");
        it = letter.emplace(word, k < 26 ? static_cast<char>('a' + k) : static_cast<char>('A' + (k - 26))).first;
      }
      equation += it->second;
    }
    word.clear();
  };
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    char ch = pattern[i];
    if (ch == ',' || (ch == '-' && i + 1 < pattern.size() && pattern[i + 1] == '>')) {
      flush();
      equation += ch == ',' ? "," : "->";
      if (ch == '-') ++i;
    } else if (ch == ' ') {
      flush();
    } else if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.') {
      word += ch;
    } else {
      throw NotModelled("einops.einsum pattern with '" + std::string(1, ch) + "'");
    }
  }
  flush();
  return einsum_of(ctx, equation, std::move(args));
}

Value einsum_of(RuleContext& ctx, const std::string& equation, std::vector<Arg> ops) {
  for (Arg& a : ops) a = ctx.as_tensor(a);
  std::vector<EinsumTerm> inputs;
  std::optional<EinsumTerm> output;
  bool well_formed = parse_einsum(equation, inputs, output);
  Message m1;
  m1 << "einsum(): invalid equation '" << equation << "'";
  if (ctx.require("einsum_c1", BoolTerm(well_formed), m1) == Status::Refuted) return unknown_tensor();  // einsum_c1
  Message m2;
  m2 << "einsum(): the equation has " << std::to_string(inputs.size()) << " operand(s) but "
     << std::to_string(ops.size()) << " were given";
  if (ctx.require("einsum_c2", BoolTerm(inputs.size() == ops.size()), m2) == Status::Refuted) return unknown_tensor();  // einsum_c2
  bool ranks_known = true;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    int64_t n = static_cast<int64_t>(inputs[i].labels.size());
    bool ell = inputs[i].ellipsis_at >= 0;
    Message m;
    m << "einsum(): the number of subscripts in the equation (" << std::to_string(n)
      << ") does not match the number of dimensions (" << ctx.rank(ops[i]) << ") for operand " << std::to_string(i)
      << (ell ? "" : " and no ellipsis was given");
    ctx.require("einsum_c3", ell ? ge(ctx.rank(ops[i]), n) : eq(ctx.rank(ops[i]), n), m);  // einsum_c3
    ranks_known = ranks_known && ops[i].shape().rank_known();
  }
  if (ctx.any_refuted() || !ranks_known) return unknown_tensor();
  // sizes per label (in operand order) and the "..." axes of each operand
  std::map<char, std::vector<IntTerm>> sizes;
  std::vector<std::vector<IntTerm>> ellipsis_axes;
  bool any_ellipsis = false;
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const EinsumTerm& t = inputs[i];
    std::vector<IntTerm> axes = ctx.sizes(ops[i]);
    std::size_t n_ell = axes.size() - t.labels.size();
    std::map<char, IntTerm> first_in_operand;
    std::vector<IntTerm> ell;
    std::size_t axis = 0;
    for (std::size_t k = 0; k <= t.labels.size(); ++k) {
      if (static_cast<int>(k) == t.ellipsis_at) {
        for (std::size_t e = 0; e < n_ell; ++e) ell.push_back(axes[axis++]);
        any_ellipsis = true;
      }
      if (k == t.labels.size()) break;
      char label = t.labels[k];
      const IntTerm& size = axes[axis++];
      auto seen = first_in_operand.find(label);
      if (seen != first_in_operand.end()) {
        Message m;
        m << "einsum(): subscript " << std::string(1, label) << " is repeated for operand " << std::to_string(i)
          << " but the sizes don't match, " << seen->second << " != " << size;
        ctx.require("einsum_c4", eq(seen->second, size), m);  // einsum_c4
        continue;
      }
      first_in_operand.emplace(label, size);
      sizes[label].push_back(size);
    }
    ellipsis_axes.push_back(ell);
  }
  // one label across operands broadcasts like the "..." axes
  std::map<char, IntTerm> label_size;
  for (const auto& [label, list] : sizes) {
    std::vector<IntTerm> acc{list[0]};
    for (std::size_t j = 1; j < list.size(); ++j) acc = broadcast_terms(ctx, "einsum_c5", acc, {list[j]});  // einsum_c5
    label_size.emplace(label, acc[0]);
  }
  std::vector<IntTerm> ell_out;
  for (const auto& ell : ellipsis_axes) ell_out = broadcast_terms(ctx, "einsum_c5", ell_out, ell);  // einsum_c5
  // the output labels
  EinsumTerm out;
  if (output) {
    out = *output;
    std::map<char, int> count;
    for (char c : out.labels) ++count[c];
    bool ok = true;
    for (char c : out.labels) ok = ok && sizes.count(c) && count[c] == 1;
    Message m;
    m << "einsum(): output subscripts must appear in the input and only once in '" << equation << "'";
    if (ctx.require("einsum_c6", BoolTerm(ok), m) == Status::Refuted) return unknown_tensor();  // einsum_c6
  } else {
    std::map<char, int> count;
    for (const EinsumTerm& t : inputs)
      for (char c : t.labels) ++count[c];
    for (const auto& [c, k] : count)
      if (k == 1) out.labels.push_back(c);
    std::sort(out.labels.begin(), out.labels.end(), [](char a, char b) { return label_rank(a) < label_rank(b); });
    out.ellipsis_at = any_ellipsis ? 0 : -1;
  }
  if (ctx.any_refuted()) return unknown_tensor();
  std::vector<IntTerm> result;
  for (std::size_t k = 0; k <= out.labels.size(); ++k) {
    if (static_cast<int>(k) == out.ellipsis_at) result.insert(result.end(), ell_out.begin(), ell_out.end());
    if (k < out.labels.size()) result.push_back(label_size.at(out.labels[k]));
  }
  return Value::tensor(shape_of_terms(result));
}


// dot(input, other): `dot_c1` both 1-d, `dot_c2` the same length. 0-d result.
Value rule_dot(RuleContext& ctx) {
  Arg a = ctx.tensor("input");
  Arg b = ctx.tensor("other");
  Message m1;
  m1 << "1D tensors expected, but got " << ctx.rank(a) << "D and " << ctx.rank(b) << "D tensors";
  if (ctx.require("dot_c1", eq(ctx.rank(a), 1) && eq(ctx.rank(b), 1), m1) == Status::Refuted) return unknown_tensor();  // dot_c1
  Message m2;
  m2 << "inconsistent tensor size, expected tensor [" << ctx.size(a, 0) << "] and src [" << ctx.size(b, 0)
     << "] to have the same number of elements";
  ctx.require("dot_c2", eq(ctx.size(a, 0), ctx.size(b, 0)), m2);  // dot_c2
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(Shape(std::vector<Dim>{}));
}

// mv(input, vec): `mv_c1` a matrix and a vector, `mv_c2` the matrix's
// columns are the vector's length. Result [rows].
Value rule_mv(RuleContext& ctx) {
  Arg a = ctx.tensor("input");
  Arg v = ctx.tensor("vec");
  Message m1;
  m1 << "vector + matrix @ vector expected, got " << ctx.rank(a) << "-D and " << ctx.rank(v) << "-D operands";
  if (ctx.require("mv_c1", eq(ctx.rank(a), 2) && eq(ctx.rank(v), 1), m1) == Status::Refuted) return unknown_tensor();  // mv_c1
  require_mv_inner(ctx, "mv_c2", a, v);  // mv_c2
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(Shape{ctx.size(a, 0).dim()});
}

// outer(input, vec2) (ger alike): `outer_c1` input 1-d, `outer_c2` vec2 1-d. Result [n, m].
Value rule_outer(RuleContext& ctx) {
  Arg a = ctx.tensor("input");
  Arg b = ctx.tensor("vec2");
  Message m1, m2;
  m1 << "outer: expected 1-D argument self, but got " << ctx.rank(a) << "-D";
  m2 << "outer: expected 1-D argument vec2, but got " << ctx.rank(b) << "-D";
  ctx.require("outer_c1", eq(ctx.rank(a), 1), m1);  // outer_c1
  ctx.require("outer_c2", eq(ctx.rank(b), 1), m2);  // outer_c2
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(Shape{ctx.size(a, 0).dim(), ctx.size(b, 0).dim()});
}

// baddbmm(input, batch1, batch2): bmm's four checks as `baddbmm_c1`–`c4`,
// and `baddbmm_c5` the input expands to [b, n, p].
Value rule_baddbmm(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg a = ctx.tensor("batch1");
  Arg b = ctx.tensor("batch2");
  if (require_3d_batches(ctx, "baddbmm_c1", "baddbmm_c2", a, b)) return unknown_tensor();  // baddbmm_c1, baddbmm_c2
  require_bmm_sizes(ctx, "baddbmm_c3", "baddbmm_c4", a, b);  // baddbmm_c3, baddbmm_c4
  std::vector<IntTerm> out{ctx.size(a, 0), ctx.size(a, 1), ctx.size(b, 2)};
  require_expandable(ctx, "baddbmm_c5", input, out);  // baddbmm_c5
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(shape_of_terms(out));
}

// cdist(x1, x2, p=2.0): `cdist_c1` x1 and `cdist_c2` x2 at least 2-d,
// `cdist_c3` the same number of columns, `cdist_c4` p >= 0 (a constant),
// and the batch axes broadcast (`broadcast_c1`). Result batch + [r1, r2].
Value rule_cdist(RuleContext& ctx) {
  Arg a = ctx.tensor("x1");
  Arg b = ctx.tensor("x2");
  Message m1, m2;
  m1 << "cdist only supports at least 2D tensors, X1 got: " << ctx.rank(a) << "D";
  m2 << "cdist only supports at least 2D tensors, X2 got: " << ctx.rank(b) << "D";
  bool bad = ctx.require("cdist_c1", ge(ctx.rank(a), 2), m1) == Status::Refuted;  // cdist_c1
  bad = (ctx.require("cdist_c2", ge(ctx.rank(b), 2), m2) == Status::Refuted) || bad;  // cdist_c2
  if (bad) return unknown_tensor();
  Message m3;
  m3 << "X1 and X2 must have the same number of columns. X1: " << ctx.size(a, -1) << " X2: " << ctx.size(b, -1);
  ctx.require("cdist_c3", eq(ctx.size(a, -1), ctx.size(b, -1)), m3);  // cdist_c3
  Arg p = ctx.arg("p");
  std::optional<double> pv;
  if (p.value.is_float()) pv = p.value.as_float();
  if (p.value.is_int() && p.value.as_int().is_constant()) pv = static_cast<double>(*p.value.as_int().constant_value());
  if (pv) {
    Message m4;
    m4 << "cdist only supports non-negative p values";
    ctx.require("cdist_c4", BoolTerm(*pv >= 0.0), m4);  // cdist_c4
  }
  if (ctx.any_refuted() || !a.shape().rank_known() || !b.shape().rank_known()) return unknown_tensor();
  std::vector<IntTerm> sa = sizes_from_end(ctx, a), sb = sizes_from_end(ctx, b);
  std::vector<IntTerm> out = broadcast_terms(ctx, "broadcast_c1", slice(sa, 0, sa.size() - 2), slice(sb, 0, sb.size() - 2));
  out.push_back(sa[sa.size() - 2]);
  out.push_back(sb[sb.size() - 2]);
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(shape_of_terms(out));
}

// cosine_similarity(x1, x2, dim=1): the two broadcast (`broadcast_c1`) and
// `cosine_similarity_c1` dim is in range of the broadcast shape, which is
// the result without dim.
Value rule_cosine_similarity(RuleContext& ctx) {
  Arg a = ctx.tensor("x1");
  Arg b = ctx.tensor("x2");
  IntTerm dim = ctx.int_term(ctx.arg("dim"));
  Shape common = broadcast_args(ctx, "broadcast_c1", a, b);  // broadcast_c1
  if (!common.rank_known()) return unknown_tensor();
  IntTerm bound = max(max(ctx.rank(a), ctx.rank(b)), 1);  // the broadcast rank
  Message m;
  m << "dimension out of range (expected to be in range of [" << -bound << ", " << bound - 1 << "], but got " << dim
    << ")";
  ctx.require("cosine_similarity_c1", le(-bound, dim) && lt(dim, bound), m);  // cosine_similarity_c1
  auto c = dim.dim().constant_value();
  if (ctx.any_refuted() || !c) return unknown_tensor();
  if (common.rank() == 0) return Value::tensor(common);
  int64_t i = *c < 0 ? *c + static_cast<int64_t>(common.rank()) : *c;
  std::vector<Dim> out = common.dims();
  out.erase(out.begin() + i);
  return Value::tensor(Shape(std::move(out)));
}

// trace(input): `trace_c1` a matrix; 0-d result.
Value rule_trace(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Message m;
  m << "trace: expected a matrix, but got tensor with dim " << ctx.rank(input);
  if (ctx.require("trace_c1", eq(ctx.rank(input), 2), m) == Status::Refuted) return unknown_tensor();  // trace_c1
  return Value::tensor(Shape(std::vector<Dim>{}));
}

// addmv(input, mat, vec): `addmv_c1` a matrix, a vector and an input of at
// most one dimension, `addmv_c2` the matrix's columns are the vector's
// length, `addmv_c3` the input has one element per row or just one.
// Result [rows], but the input's shape for an empty matrix (torch 1.13).
Value rule_addmv(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg a = ctx.tensor("mat");
  Arg v = ctx.tensor("vec");
  Message m1;
  m1 << "vector + matrix @ vector expected, got " << ctx.rank(input) << ", " << ctx.rank(a) << ", " << ctx.rank(v);
  if (ctx.require("addmv_c1", eq(ctx.rank(a), 2) && eq(ctx.rank(v), 1) && le(ctx.rank(input), 1), m1) ==  // addmv_c1
      Status::Refuted)
    return unknown_tensor();
  require_mv_inner(ctx, "addmv_c2", a, v);  // addmv_c2
  Message m3;
  m3 << "size mismatch, the input has " << ctx.numel(input) << " elements for " << ctx.size(a, 0) << " rows";
  ctx.require("addmv_c3", eq(ctx.numel(input), ctx.size(a, 0)) || eq(ctx.numel(input), 1), m3);  // addmv_c3
  if (ctx.any_refuted()) return unknown_tensor();
  // torch 1.13 answers an empty matrix with beta * input: the input's shape
  Shape rows{ctx.size(a, 0).dim()};
  const Shape& in = input.shape();
  if (in == rows) return Value::tensor(rows);
  auto empty = ctx.query(eq(ctx.numel(a).dim(), 0));
  if (!empty) return unknown_tensor();
  return Value::tensor(*empty ? in : rows);
}

// addbmm(input, batch1, batch2): bmm's checks as `addbmm_c1`–`c4`, and
// `addbmm_c5` the input expands to [n, p] (the batch is summed).
Value rule_addbmm(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  Arg a = ctx.tensor("batch1");
  Arg b = ctx.tensor("batch2");
  if (require_3d_batches(ctx, "addbmm_c1", "addbmm_c2", a, b)) return unknown_tensor();  // addbmm_c1, addbmm_c2
  Message m3;
  m3 << "batch1 and batch2 must have same number of batches, got " << ctx.size(a, 0) << " and " << ctx.size(b, 0);
  ctx.require("addbmm_c3", eq(ctx.size(a, 0), ctx.size(b, 0)), m3);  // addbmm_c3
  Message m4;
  m4 << "incompatible matrix sizes for bmm (" << ctx.size(a, 1) << "x" << ctx.size(a, 2) << " and " << ctx.size(b, 1)
     << "x" << ctx.size(b, 2) << ")";
  ctx.require("addbmm_c4", eq(ctx.size(a, 2), ctx.size(b, 1)), m4);  // addbmm_c4
  std::vector<IntTerm> out{ctx.size(a, 1), ctx.size(b, 2)};
  require_expandable(ctx, "addbmm_c5", input, out);  // addbmm_c5
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(shape_of_terms(out));
}

// kron(input, other): no constraint; both padded with leading 1s to the
// larger rank, the sizes multiply.
Value rule_kron(RuleContext& ctx) {
  Arg a = ctx.tensor("input");
  Arg b = ctx.tensor("other");
  if (!a.shape().rank_known() || !b.shape().rank_known()) return unknown_tensor();
  std::vector<Dim> x = a.shape().dims(), y = b.shape().dims();
  std::size_t r = std::max(x.size(), y.size());
  x.insert(x.begin(), r - x.size(), Dim(1));
  y.insert(y.begin(), r - y.size(), Dim(1));
  std::vector<Dim> out;
  for (std::size_t i = 0; i < r; ++i) out.push_back(x[i] * y[i]);
  return Value::tensor(Shape(std::move(out)));
}

// cross(input, other, dim=None) (torch 1.13: linalg.cross with a default
// dim): `cross_c1` without dim, some axis of the input has size 3 (the
// first is taken), `cross_c2` the same rank, `cross_c3` dim in range,
// `cross_c4` both have size 3 at dim, and the two broadcast
// (`broadcast_c1`), which is the result.
Value rule_cross(RuleContext& ctx) {
  Arg a = ctx.tensor("input");
  Arg b = ctx.tensor("other");
  const Shape& sa = a.shape();
  IntTerm dim(0);
  if (ctx.is_none("dim")) {
    if (!sa.rank_known()) throw NotModelled("cross without dim on an input of unknown rank");
    std::optional<int64_t> first;
    std::vector<BoolTerm> any3;
    for (std::size_t i = 0; i < sa.rank() && !first; ++i) {
      auto three = ctx.query(eq(sa[i], 3));
      if (!three) throw NotModelled("cross without dim: which axis has size 3 is not known");
      if (*three) first = static_cast<int64_t>(i);
    }
    Message m;
    m << "no dimension of size 3 in input " << ctx.shape_hole(a);
    if (ctx.require("cross_c1", BoolTerm(first.has_value()), m) == Status::Refuted) return unknown_tensor();  // cross_c1
    dim = IntTerm(*first);
  } else {
    dim = ctx.int_term(ctx.arg("dim"));
  }
  Message m2;
  m2 << "linalg.cross: inputs must have the same number of dimensions, got " << ctx.rank(a) << " and " << ctx.rank(b);
  if (ctx.require("cross_c2", eq(ctx.rank(a), ctx.rank(b)), m2) == Status::Refuted) return unknown_tensor();  // cross_c2
  auto d = require_dim(ctx, "cross_c3", a, dim);  // cross_c3
  std::optional<int64_t> at;  // the axis, also when only the dim is known (a literal, checked at run time)
  if (d && sa.rank_known() && sa.rank() > 0) at = static_cast<int64_t>(*d);
  if (!sa.rank_known() && dim.is_literal()) at = dim.expr()->value;
  if (at) {
    IntTerm x = ctx.size(a, *at), y = ctx.size(b, *at);
    Message m4;
    m4 << "linalg.cross: inputs dimension " << dim << " must have length 3. Got " << x << " and " << y;
    ctx.require("cross_c4", eq(x, 3) && eq(y, 3), m4);  // cross_c4
  }
  if (ctx.any_refuted()) return unknown_tensor();
  Shape out = broadcast_args(ctx, "broadcast_c1", a, b);  // broadcast_c1
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(out);
}

// tensordot(a, b, dims=2): an int k contracts a's last k axes with b's first
// k (`tensordot_c1` k >= 0), lists name the axes (`tensordot_c2` as many
// for a as for b); `tensordot_c3` each axis in range of its tensor;
// `tensordot_c4` contracted sizes are equal or one of them is 1 (torch sums
// a size-1 axis away). The result: a's other axes, then b's.
Value rule_tensordot(RuleContext& ctx) {
  Arg a = ctx.tensor("a");
  Arg b = ctx.tensor("b");
  Arg dims = ctx.arg("dims");
  std::vector<IntTerm> da, db;
  if (ctx.is_int(dims)) {
    IntTerm k = ctx.int_term(dims);
    Message m1;
    m1 << "tensordot expects dims >= 0, but got dims=" << k;
    if (ctx.require("tensordot_c1", ge(k, 0), m1) == Status::Refuted) return unknown_tensor();  // tensordot_c1
    auto kc = k.dim().constant_value();
    if (!kc) throw NotModelled("tensordot with a symbolic number of dims");
    for (int64_t i = 0; i < *kc; ++i) {
      da.push_back(IntTerm(i - *kc));
      db.push_back(IntTerm(i));
    }
  } else {
    std::vector<Arg> pair = ctx.elements(dims);
    if (pair.size() != 2) throw NotModelled("tensordot dims is not an int or a pair of lists");
    for (const Arg& x : ctx.int_or_list(pair[0])) da.push_back(ctx.int_term(x));
    for (const Arg& x : ctx.int_or_list(pair[1])) db.push_back(ctx.int_term(x));
    Message m2;
    m2 << "both dimension lists should have same length, got " << std::to_string(da.size()) << " and "
       << std::to_string(db.size());
    if (ctx.require("tensordot_c2", BoolTerm(da.size() == db.size()), m2) == Status::Refuted)  // tensordot_c2
      return unknown_tensor();
  }
  std::vector<std::optional<std::size_t>> ia, ib;
  for (const IntTerm& d : da) ia.push_back(require_dim(ctx, "tensordot_c3", a, d, false));  // tensordot_c3
  for (const IntTerm& d : db) ib.push_back(require_dim(ctx, "tensordot_c3", b, d, false));  // tensordot_c3
  const Shape& sa = a.shape();
  const Shape& sb = b.shape();
  auto known = [](const auto& v) { return std::all_of(v.begin(), v.end(), [](const auto& i) { return i.has_value(); }); };
  if (ctx.any_refuted()) return unknown_tensor();
  for (std::size_t i = 0; i < ia.size(); ++i) {
    // an axis by its wrapped index, or by the literal dim when the rank is unknown (read at run time)
    auto xa = size_at(ctx, a, ia[i], da[i]), yb = size_at(ctx, b, ib[i], db[i]);
    if (!xa || !yb) continue;
    IntTerm x = *xa, y = *yb;
    Message m;
    m << "contracted dimensions need to match, but first has size " << x << " in dim " << da[i]
      << " and second has size " << y << " in dim " << db[i];
    ctx.require("tensordot_c4", eq(x, y) || eq(x, 1) || eq(y, 1), m);  // tensordot_c4
  }
  if (ctx.any_refuted() || !sa.rank_known() || !sb.rank_known() || !known(ia) || !known(ib)) return unknown_tensor();
  auto repeated = [](std::vector<std::optional<std::size_t>> v) {
    std::sort(v.begin(), v.end());
    return std::adjacent_find(v.begin(), v.end()) != v.end();
  };
  if (repeated(ia) || repeated(ib)) throw NotModelled("tensordot with an axis contracted twice");
  std::vector<Dim> out;
  for (std::size_t i = 0; i < sa.rank(); ++i)
    if (std::find(ia.begin(), ia.end(), std::optional<std::size_t>(i)) == ia.end()) out.push_back(sa[i]);
  for (std::size_t i = 0; i < sb.rank(); ++i)
    if (std::find(ib.begin(), ib.end(), std::optional<std::size_t>(i)) == ib.end()) out.push_back(sb[i]);
  return Value::tensor(Shape(std::move(out)));
}

}  // namespace

void register_linalg_rules(RuleRegistry& r) {
  for (const char* name : {"torch.matmul", "Tensor.matmul", "operator.matmul", "Tensor.__matmul__"})
    r.add(name, "input, other, *, out=None", rule_matmul);
  for (const char* name : {"torch.mm", "Tensor.mm"}) r.add(name, "input, mat2, *, out=None", rule_mm);
  for (const char* name : {"torch.bmm", "Tensor.bmm"}) r.add(name, "input, mat2, *, out=None", rule_bmm);
  r.add("torch.addmm", "input, mat1, mat2, *, beta=1, alpha=1, out=None", rule_addmm);
  r.add("Tensor.addmm", "input, mat1, mat2, *, beta=1, alpha=1", rule_addmm);
  r.add("torch.nn.functional.linear", "input, weight, bias=None", rule_linear);
  r.add("torch.einsum", "equation, *operands", rule_einsum);
  r.add("einops.einsum", "*tensors_and_pattern", rule_einops_einsum);
  for (const char* name : {"torch.dot", "Tensor.dot"}) r.add(name, "input, other, *, out=None", rule_dot);
  for (const char* name : {"torch.mv", "Tensor.mv"}) r.add(name, "input, vec, *, out=None", rule_mv);
  for (const char* name : {"torch.outer", "Tensor.outer", "torch.ger", "Tensor.ger"}) r.add(name, "input, vec2, *, out=None", rule_outer);
  r.add("torch.baddbmm", "input, batch1, batch2, *, beta=1, alpha=1, out=None", rule_baddbmm);
  r.add("Tensor.baddbmm", "input, batch1, batch2, *, beta=1, alpha=1", rule_baddbmm);
  r.add("torch.cdist", "x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'", rule_cdist);
  for (const char* name : {"torch.cosine_similarity", "torch.nn.functional.cosine_similarity"})
    r.add(name, "x1, x2, dim=1, eps=1e-8", rule_cosine_similarity);
  for (const char* name : {"torch.trace", "Tensor.trace"}) r.add(name, "input", rule_trace);
  r.add("torch.addmv", "input, mat, vec, *, beta=1, alpha=1, out=None", rule_addmv);
  r.add("Tensor.addmv", "input, mat, vec, *, beta=1, alpha=1", rule_addmv);
  r.add("torch.addbmm", "input, batch1, batch2, *, beta=1, alpha=1, out=None", rule_addbmm);
  r.add("Tensor.addbmm", "input, batch1, batch2, *, beta=1, alpha=1", rule_addbmm);
  for (const char* name : {"torch.kron", "Tensor.kron"}) r.add(name, "input, other, *, out=None", rule_kron);
  for (const char* name : {"torch.cross", "Tensor.cross"}) r.add(name, "input, other, dim=None, *, out=None", rule_cross);
  r.add("torch.tensordot", "a, b, dims=2, out=None", rule_tensordot);
}

}  // namespace gshape::gradual
