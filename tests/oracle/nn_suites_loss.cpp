// Oracle generators for the losses, function and module forms: class-index
// targets of every rank (with the batch or a spatial size off by one, the
// rank one off), probability targets, class weights of the wrong length,
// broadcasting targets for the element-wise losses, BCE targets of another
// size, weights and pos_weights that do not broadcast, invalid reductions.
// Class indices are zeros and every input has at least one class (index
// values are not modelled).
#include "nn_oracle.h"

namespace gshape::oracle::nn {
namespace {

std::vector<int64_t> sizes(Rng& r, int64_t rank) {
  std::vector<int64_t> s(static_cast<std::size_t>(rank));
  for (auto& d : s) d = r.chance(0.05) ? 0 : r.range(1, 3);
  return s;
}

NArg reduction(Rng& r, bool batchmean = false) {
  double p = r.real(0, 1);
  if (p < 0.03) return S("max");
  if (batchmean && p < 0.15) return S("batchmean");
  return S(r.pick(std::vector<std::string>{"none", "mean", "sum"}));
}

// input [C] or [N, C, d1, ...] with a class-index target, near the valid one.
struct IndexCase {
  std::vector<int64_t> input, target;
  int64_t classes = 1;
};

IndexCase index_case(Rng& r) {
  IndexCase c;
  int64_t rank = r.chance(0.03) ? 0 : r.range(1, 4);
  c.input = sizes(r, rank);
  if (rank >= 1) {
    std::size_t class_axis = rank == 1 ? 0 : 1;
    c.input[class_axis] = c.classes = r.range(1, 4);
  }
  if (rank == 1) {
    c.target = r.chance(0.7) ? std::vector<int64_t>{} : std::vector<int64_t>{r.near(c.classes, 0.3)};
  } else if (rank >= 2) {
    c.target = {c.input[0]};
    for (std::size_t i = 2; i < c.input.size(); ++i) c.target.push_back(c.input[i]);
  }
  double p = r.real(0, 1);
  if (p < 0.08 && !c.target.empty()) c.target[0] += 1;                       // batch off by one
  else if (p < 0.16 && c.target.size() > 1) c.target.back() += 1;            // a spatial size off by one
  else if (p < 0.2) c.target.push_back(2);                                    // a rank too many
  else if (p < 0.24 && !c.target.empty()) c.target.pop_back();                // a rank too few
  return c;
}

NArg class_weight(Rng& r, int64_t classes) {
  if (r.chance(0.1)) return T({classes, 1});
  return T({r.near(classes, 0.1)});
}

NCase index_loss(Rng& r, bool cross_entropy, bool module) {
  IndexCase ic = index_case(r);
  NArg target = LT(ic.target);
  if (cross_entropy && (r.chance(0.2) || ic.target == ic.input)) target = T(ic.input);  // probabilities
  NCase c;
  NCall& opts = module ? c.init : c.call;
  if (r.chance(0.3)) opts.kwargs.emplace_back("weight", class_weight(r, ic.classes));
  opts.kwargs.emplace_back("reduction", reduction(r));
  if (cross_entropy && r.chance(0.2)) opts.kwargs.emplace_back("label_smoothing", F(r.chance(0.8) ? 0.1 : 1.5));
  if (module) {
    c.call.args = {T(ic.input), target};
  } else {
    c.call.args.insert(c.call.args.begin(), {T(ic.input), target});
  }
  return c;
}

// Two shapes that usually broadcast.
std::pair<std::vector<int64_t>, std::vector<int64_t>> broadcast_pair(Rng& r) {
  std::vector<int64_t> a = sizes(r, r.range(0, 3));
  std::vector<int64_t> b;
  std::size_t keep = static_cast<std::size_t>(r.range(0, static_cast<int64_t>(a.size())));
  for (std::size_t i = a.size() - keep; i < a.size(); ++i) b.push_back(r.chance(0.25) ? 1 : a[i]);
  if (r.chance(0.15)) b.insert(b.begin(), r.range(1, 2));
  if (!b.empty() && r.chance(0.12)) b.back() += 1;
  if (r.chance(0.4)) b = a;
  if (r.chance(0.5)) std::swap(a, b);
  return {a, b};
}

NCase pointwise_loss(Rng& r, const std::string& op, bool module) {
  auto [a, b] = broadcast_pair(r);
  NCase c;
  NCall& opts = module ? c.init : c.call;
  opts.kwargs.emplace_back("reduction", reduction(r, op == "kl_div"));
  if (op == "smooth_l1_loss" && r.chance(0.3)) opts.kwargs.emplace_back("beta", F(r.chance(0.8) ? 0.5 : -1.0));
  if (op == "huber_loss" && r.chance(0.3)) opts.kwargs.emplace_back("delta", F(r.chance(0.8) ? 0.5 : 0.0));
  if (op == "kl_div" && r.chance(0.3)) opts.kwargs.emplace_back("log_target", B(true));
  c.call.args.insert(c.call.args.begin(), {T(a), T(b)});
  return c;
}

NCase binary_loss(Rng& r, bool logits, bool module) {
  std::vector<int64_t> x = sizes(r, r.range(0, 3));
  std::vector<int64_t> t = x;
  if (r.chance(0.1)) {
    if (!t.empty() && r.chance(0.5)) t.back() += 1;
    else t.insert(t.begin(), 1);
  }
  NCase c;
  NCall& opts = module ? c.init : c.call;
  auto broadcastish = [&]() {
    std::vector<int64_t> w;
    for (std::size_t i = x.size() - static_cast<std::size_t>(r.range(0, static_cast<int64_t>(x.size()))); i < x.size(); ++i)
      w.push_back(r.chance(0.4) ? 1 : x[i]);
    if (r.chance(0.1)) w.insert(w.begin(), 2);
    if (!w.empty() && r.chance(0.1)) w.back() += 1;
    return T(w);
  };
  if (r.chance(0.3)) opts.kwargs.emplace_back("weight", broadcastish());
  if (logits && r.chance(0.3)) opts.kwargs.emplace_back("pos_weight", broadcastish());
  opts.kwargs.emplace_back("reduction", reduction(r));
  c.call.args.insert(c.call.args.begin(), {T(x), T(t)});
  return c;
}

}  // namespace

std::vector<NSuite> loss_suites() {
  std::vector<NSuite> out;
  out.push_back({"F.cross_entropy", "torch.nn.functional.cross_entropy", [](Rng& r) { return index_loss(r, true, false); }});
  out.push_back({"nn.CrossEntropyLoss", "torch.nn.CrossEntropyLoss", [](Rng& r) { return index_loss(r, true, true); }});
  out.push_back({"F.nll_loss", "torch.nn.functional.nll_loss", [](Rng& r) { return index_loss(r, false, false); }});
  out.push_back({"nn.NLLLoss", "torch.nn.NLLLoss", [](Rng& r) { return index_loss(r, false, true); }});
  for (const char* op : {"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "kl_div"}) {
    std::string name = op;
    out.push_back({"F." + name, "torch.nn.functional." + name, [name](Rng& r) { return pointwise_loss(r, name, false); }});
  }
  const std::pair<const char*, const char*> modules[] = {{"MSELoss", "mse_loss"}, {"L1Loss", "l1_loss"},
                                                         {"SmoothL1Loss", "smooth_l1_loss"}, {"HuberLoss", "huber_loss"},
                                                         {"KLDivLoss", "kl_div"}};
  for (const auto& [m, op] : modules) {
    std::string name = op;
    out.push_back({std::string("nn.") + m, std::string("torch.nn.") + m, [name](Rng& r) { return pointwise_loss(r, name, true); }});
  }
  out.push_back({"F.binary_cross_entropy", "torch.nn.functional.binary_cross_entropy",
                 [](Rng& r) { return binary_loss(r, false, false); }});
  out.push_back({"nn.BCELoss", "torch.nn.BCELoss", [](Rng& r) { return binary_loss(r, false, true); }});
  out.push_back({"F.binary_cross_entropy_with_logits", "torch.nn.functional.binary_cross_entropy_with_logits",
                 [](Rng& r) { return binary_loss(r, true, false); }});
  out.push_back({"nn.BCEWithLogitsLoss", "torch.nn.BCEWithLogitsLoss", [](Rng& r) { return binary_loss(r, true, true); }});
  return out;
}

}  // namespace gshape::oracle::nn
