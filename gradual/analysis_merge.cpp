// Per (site, tag) merging of raw obligations over the analyses of the site.
#include "gradual/analysis_merge.h"

#include "gradual/python_errors.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace gshape::gradual {

namespace {

int rank(Status s) { return s == Status::Refuted ? 2 : s == Status::Deferred ? 1 : 0; }

// A group's members → one merged obligation with the outcome rules.
AnalysedObligation merge_members(const std::vector<const RawObligation*>& members) {
  const RawObligation* normal_refuted = nullptr;
  const RawObligation* batch_refuted = nullptr;
  const RawObligation* handled_refuted = nullptr;
  const RawObligation* deferred = nullptr;
  bool deferred_only_uncalled = true;  // every deferred member comes from a function nobody calls
  bool zero_only = true;                // every deferred member holds only when a size is 0
  bool refuted_only_uncalled = true;    // every refuted member comes from a function nobody calls
  std::set<int> evaluations;
  bool without_z3 = true;
  for (const RawObligation* r : members) {
    evaluations.insert(r->evaluation);
    without_z3 = without_z3 && r->ob->decided_without_z3;
    if (r->ob->status == Status::Refuted) {
      refuted_only_uncalled = refuted_only_uncalled && r->uncalled;
      if (r->handled_by.valid() || r->in_handler.valid()) {
        if (!handled_refuted) handled_refuted = r;
      } else if (r->last_batch) {
        if (!batch_refuted) batch_refuted = r;
      } else if (!normal_refuted) {
        normal_refuted = r;
      }
    } else if (r->ob->status == Status::Deferred) {
      // the review explains a deferred obligation by a visit the project
      // makes (not a function nobody calls), one whose unknown was traced
      auto better = [](const RawObligation* now, const RawObligation* other) {
        if (now->uncalled != other->uncalled) return now->uncalled;
        return now->ob->origin.empty() && !other->ob->origin.empty();
      };
      if (!deferred || better(deferred, r)) deferred = r;
      deferred_only_uncalled = deferred_only_uncalled && r->uncalled;
      zero_only = zero_only && !r->ob->zero_only.empty();
    }
  }
  AnalysedObligation out;
  const RawObligation* rep = members.front();
  bool zero_warning = false;
  if (normal_refuted) {
    rep = normal_refuted;
    out.outcome = Outcome::Error;
  } else if (batch_refuted) {
    rep = batch_refuted;
    out.outcome = Outcome::Warning;
  } else if (handled_refuted) {
    rep = handled_refuted;
    out.outcome = Outcome::Warning;
  } else if (deferred && zero_only) {
    rep = deferred;
    out.outcome = Outcome::Warning;
    zero_warning = true;
    out.uncalled_only = deferred_only_uncalled;
  } else if (deferred) {
    rep = deferred;
    out.outcome = Outcome::Deferred;
    out.uncalled_only = deferred_only_uncalled;
  } else {
    out.outcome = Outcome::Proven;
  }
  out.ob = *rep->ob;
  out.ob.decided_without_z3 = without_z3;
  if (out.ob.status == Status::Deferred && out.ob.origin.empty() &&
      out.ob.reason.rfind("the solver could not decide", 0) == 0)
    out.ob.origin = "solver";
  out.contexts = static_cast<int>(evaluations.size());
  if (rep->notes) out.notes = *rep->notes;
  if (out.outcome == Outcome::Error && refuted_only_uncalled && !rep->uncalled_root.empty()) {
    // the error is certain, but only on the way from a function the project
    // never calls (pytorch-cifar's `test()`): say so, or the user looks for
    // it in the run that works
    out.notes.push_back({rep->uncalled_root_loc, "this fails when `" + rep->uncalled_root +
                                                     "` runs, which nothing in the project calls"});
  }
  if (out.outcome == Outcome::Warning && rep->in_handler.valid() && !rep->handled_by.valid()) {
    // an except clause's body runs only after its try body raised: when
    // every requirement there holds, it never runs for a shape error
    out.ob.status = Status::Deferred;
    out.ob.reason = "fails, but only in an except clause, which runs when its try body raised";
    out.notes.insert(out.notes.begin(),
                     {rep->in_handler, "this fails whenever it runs, but it runs only when the try body above "
                                       "raised: checked at run time, not counted as an error"});
  } else if (out.outcome == Outcome::Warning && rep->handled_by.valid()) {
    // the runtime check stays: its ShapeCheckError is a RuntimeError, so the
    // program's handler catches it as it would catch PyTorch's error
    out.ob.status = Status::Deferred;
    out.ob.reason = "fails, but inside a try whose " + rep->handled_what + " handles the failure";
    out.notes.insert(out.notes.begin(),
                     {rep->handled_by, "this fails whenever it runs, but the " +
                                           std::string(python_error_of(rep->ob->tag)) + " is caught here (" +
                                           rep->handled_what + "): the program falls back instead of crashing"});
  } else if (zero_warning) {
    // holds only at size 0: still checked at run time
    const std::vector<std::string>& names = rep->ob->zero_only;
    std::string which;
    for (std::size_t i = 0; i < names.size(); ++i)
      which += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
    out.context_note = "holds only when " + which + (names.size() == 1 ? " is 0" : " is 0 (one of them)");
    out.ob.reason = out.context_note;
  } else if (out.outcome == Outcome::Warning) {
    out.ob.status = Status::Deferred;  // the runtime check stays: it fails on that batch only
    out.context_note = rep->context_note;
    out.ob.reason = rep->context_note;
    if (!rep->context_detail.empty()) out.notes.insert(out.notes.begin(), {rep->context_loc, rep->context_detail});
  }
  return out;
}

}  // namespace

namespace {
using GroupKey = std::tuple<std::string, uint32_t, uint32_t, uint32_t, uint32_t, std::string>;

GroupKey group_key(const RawObligation& r) {
  const SourceLoc& l = r.ob->loc;
  return {l.file ? l.file->path() : std::string(), l.line, l.column, l.begin, l.end, r.ob->tag};
}

// Whether the analyses of a site agree on the constraint texts they emitted
// (then the members are merged per text).
bool uniform(const std::vector<const RawObligation*>& members) {
  std::map<int, std::set<std::string>> by_evaluation;
  for (const RawObligation* r : members) by_evaluation[r->evaluation].insert(r->ob->constraint_sexpr());
  for (const auto& [e, texts] : by_evaluation)
    if (texts != by_evaluation.begin()->second) return false;
  return true;
}
}  // namespace

std::vector<std::size_t> skipped_proofs_that_matter(const std::vector<RawObligation>& raw) {
  std::map<GroupKey, std::vector<std::size_t>> groups;
  bool any = false;
  for (std::size_t i = 0; i < raw.size(); ++i) {
    groups[group_key(raw[i])].push_back(i);
    any = any || raw[i].ob->proof_skipped;
  }
  std::vector<std::size_t> out;
  if (!any) return out;
  for (const auto& [key, indices] : groups) {
    bool skipped = false;
    for (std::size_t i : indices) skipped = skipped || raw[i].ob->proof_skipped;
    if (!skipped) continue;
    std::vector<const RawObligation*> members;
    for (std::size_t i : indices) members.push_back(&raw[i]);
    if (!uniform(members)) {
      for (std::size_t i : indices)
        if (raw[i].ob->proof_skipped) out.push_back(i);
      continue;
    }
    std::map<std::string, std::vector<std::size_t>> by_text;
    for (std::size_t i : indices) by_text[raw[i].ob->constraint_sexpr()].push_back(i);
    for (const auto& [text, group] : by_text) {
      // what merge_members reads of deferred members, settled by the decided ones?
      bool refuted = false, first_settled = false, zero_settled = false, uncalled_settled = false;
      bool seen_deferred = false;
      for (std::size_t i : group) {
        const RawObligation& r = raw[i];
        if (r.ob->status == Status::Refuted) refuted = true;
        if (r.ob->status != Status::Deferred) continue;
        if (!seen_deferred) first_settled = !r.ob->proof_skipped;
        seen_deferred = true;
        if (r.ob->proof_skipped) continue;
        zero_settled = zero_settled || r.ob->zero_only.empty();
        uncalled_settled = uncalled_settled || !r.uncalled;
      }
      if (refuted) continue;  // a refuted member is the one merged
      for (std::size_t i : group) {
        const RawObligation& r = raw[i];
        if (!r.ob->proof_skipped) continue;
        if (!first_settled || !zero_settled || (!uncalled_settled && !r.uncalled)) out.push_back(i);
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<AnalysedObligation> merge_obligations(const std::vector<RawObligation>& raw) {
  // group by site and tag, in a stable order
  using Key = std::tuple<std::string, uint32_t, uint32_t, uint32_t, uint32_t, std::string>;
  std::map<Key, std::vector<const RawObligation*>> groups;
  for (const RawObligation& r : raw) {
    const SourceLoc& l = r.ob->loc;
    groups[{l.file ? l.file->path() : std::string(), l.line, l.column, l.begin, l.end, r.ob->tag}].push_back(&r);
  }
  std::vector<AnalysedObligation> out;
  for (const auto& [key, members] : groups) {
    // each analysis of the site: the set of constraint texts it emitted for the tag
    std::map<int, std::set<std::string>> by_evaluation;
    for (const RawObligation* r : members) by_evaluation[r->evaluation].insert(r->ob->constraint_sexpr());
    bool uniform = true;
    for (const auto& [e, texts] : by_evaluation) uniform = uniform && texts == by_evaluation.begin()->second;
    if (uniform) {
      std::map<std::string, std::vector<const RawObligation*>> by_text;
      std::vector<std::string> order;
      for (const RawObligation* r : members) {
        std::string text = r->ob->constraint_sexpr();
        if (!by_text.count(text)) order.push_back(text);
        by_text[text].push_back(r);
      }
      for (const std::string& text : order) out.push_back(merge_members(by_text[text]));
      continue;
    }
    // disagreeing analyses: one obligation, the worst of each analysis' worst
    std::map<int, const RawObligation*> worst_per_eval;
    for (const RawObligation* r : members) {
      const RawObligation*& worst = worst_per_eval[r->evaluation];
      if (!worst || rank(r->ob->status) > rank(worst->ob->status)) worst = r;
    }
    std::vector<const RawObligation*> worst;
    for (const auto& [e, r] : worst_per_eval) worst.push_back(r);
    out.push_back(merge_members(worst));
  }
  std::stable_sort(out.begin(), out.end(), [](const AnalysedObligation& a, const AnalysedObligation& b) {
    const SourceLoc& la = a.ob.loc;
    const SourceLoc& lb = b.ob.loc;
    std::string pa = la.file ? la.file->path() : std::string();
    std::string pb = lb.file ? lb.file->path() : std::string();
    return std::tie(pa, la.line, la.column, a.ob.tag) < std::tie(pb, lb.line, lb.column, b.ob.tag);
  });
  for (std::size_t i = 0; i < out.size(); ++i) out[i].ob.id = static_cast<int>(i);
  return out;
}

}  // namespace gshape::gradual
