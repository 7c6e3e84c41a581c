// Sites, recorded operands, the verdict cache and the counters.
#include "runtime/site_table.h"

#include <cstring>

namespace gshape::runtime {

namespace {

// A cache that outgrows this is cleared: a site that sees this many distinct
// shapes is not in a loop that the cache would help.
constexpr std::size_t kMaxCachedVerdicts = 256;

}  // namespace

SiteTable::SiteTable(std::string path, std::vector<SiteSpec> sites) : path_(std::move(path)) {
  sites_.resize(sites.size());
  for (std::size_t s = 0; s < sites.size(); ++s) {
    Site& site = sites_[s];
    site.spec = std::move(sites[s]);
    std::string where = path_ + ":" + std::to_string(site.spec.line) + ":" + std::to_string(site.spec.col) +
                        " (site " + std::to_string(s) + ")";
    if (site.spec.args.empty()) throw SiteTableError(where + ": a site needs at least one operand");
    for (std::size_t k = 0; k < site.spec.args.size(); ++k) {
      if (site.spec.args[k].kind != ArgSpec::Kind::Callee) continue;
      if (site.callee_slot >= 0) throw SiteTableError(where + ": a site has at most one callee");
      site.callee_slot = static_cast<int>(k);
    }
    if (site.spec.rule.empty()) {
      if (site.callee_slot < 0) throw SiteTableError(where + ": a site without a rule needs a callee operand");
    } else {
      site.rule = gradual::RuleRegistry::builtin().find(site.spec.rule);
      if (!site.rule) throw SiteTableError(where + ": no rule named '" + site.spec.rule + "'");
      site.is_operator = site.spec.rule.rfind("operator.", 0) == 0;
      // operators whose first operand matters without being a tensor: a
      // torch.Size indexed (getitem_c3), a sequence of tensors unpacked
      site.sequence_operand = site.spec.rule == "operator.getitem" || site.spec.rule.rfind("operator.unpack", 0) == 0 ||
                              site.spec.rule.rfind("operator.iter_unpack", 0) == 0;
      if (site.spec.rule.rfind("operator.unpack", 0) == 0)
        site.unpack_count = static_cast<std::size_t>(std::stoul(site.spec.rule.substr(15)));
    }
    site.slots.resize(site.spec.args.size());
    site.frames.assign(site.spec.args.size(), nullptr);
  }
}

Observed* SiteTable::record(std::size_t site, std::size_t slot, const void* frame) {
  Site& s = sites_[site];
  if (slot >= s.slots.size()) return nullptr;
  s.frames[slot] = frame;
  return &s.slots[slot];
}

const ArgSpec* SiteTable::arg(std::size_t site, std::size_t slot) const {
  const Site& s = sites_[site];
  return slot < s.spec.args.size() ? &s.spec.args[slot] : nullptr;
}

void SiteTable::set_callee(std::size_t site, const gradual::Rule* rule, bool receiver) {
  sites_[site].callee_rule = rule;
  sites_[site].callee_receiver = receiver;
}

const RuleRun& SiteTable::evaluate(std::size_t site, const void* frame) {
  Site& s = sites_[site];
  SiteCounters& c = s.counters;
  ++c.runs;
  // operands of another activation are not this evaluation's
  for (std::size_t k = 0; k < s.slots.size(); ++k)
    if (s.frames[k] != frame && s.slots[k].kind != ObservedKind::Unset) s.slots[k].reset(ObservedKind::Unset);

  const gradual::Rule* rule = s.rule;
  const Observed* receiver = nullptr;
  if (s.callee_slot >= 0) {
    bool callee_here = s.frames[s.callee_slot] == frame;
    const gradual::Rule* callee_rule = callee_here ? s.callee_rule : nullptr;
    if (!rule) rule = callee_rule;
    if (callee_here && s.callee_receiver && rule == callee_rule) receiver = &s.slots[s.callee_slot];
  }
  auto forget = [&] {
    for (std::size_t k = 0; k < s.slots.size(); ++k) s.frames[k] = nullptr;
    s.callee_rule = nullptr;
    s.callee_receiver = false;
  };
  if (!rule) {
    ++c.no_rule;
    forget();
    scratch_ = RuleRun{};
    scratch_.note = "the callee has no rule";
    return scratch_;
  }

  // Python's own operators on numbers, strings and lists raise no shape
  // error; indexing a torch.Size does (getitem_c3)
  if (s.is_operator) {
    bool tensor = false;
    for (const Observed& o : s.slots) tensor = tensor || o.is_tensor();
    if (!tensor && s.sequence_operand && !s.slots.empty() && s.slots.front().is_sequence()) {
      const Observed& seq = s.slots.front();
      tensor = seq.kind == ObservedKind::Size;  // x.shape[4]
      for (const Observed& item : seq.items) tensor = tensor || item.is_tensor();  // a, b = pieces
    }
    if (!tensor) {
      ++c.skipped;
      forget();
      scratch_ = RuleRun{};
      scratch_.note = "no operand is a tensor";
      return scratch_;
    }
  }
  key_.clear();
  const void* rule_id = rule;
  key_.append(reinterpret_cast<const char*>(&rule_id), sizeof rule_id);
  key_ += receiver ? 'r' : '-';
  for (const Observed& o : s.slots) o.append_key(key_);
  auto hit = s.cache.find(key_);
  const RuleRun* run = nullptr;
  if (hit != s.cache.end()) {
    ++c.cached;
    run = &hit->second;
  } else {
    scratch_ = run_rule(*rule, receiver, s.callee_slot, s.spec.args, s.slots);
    if (scratch_.verdict != RuleRun::Verdict::Failed) {
      if (s.cache.size() >= kMaxCachedVerdicts) s.cache.clear();
      run = &s.cache.emplace(key_, scratch_).first->second;
    } else {
      run = &scratch_;
    }
  }
  ++c.rules[rule];
  if (run->verdict == RuleRun::Verdict::Failed) {
    ++c.failures;
    for (const Failure& f : run->failures) ++c.failed_tags[f.tag];
  } else if (run->verdict == RuleRun::Verdict::Skipped) {
    ++c.skipped;
  }
  forget();
  return *run;
}

}  // namespace gshape::runtime
