// Per (site, tag) merging of raw obligations over the analyses of the site.
#include "gradual/analysis_merge.h"

#include "gradual/python_errors.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>
#include <tuple>

namespace gshape::gradual {

namespace {

int rank(Status s) { return s == Status::Refuted ? 2 : s == Status::Deferred ? 1 : 0; }

// What merging a group's members gives, before the obligation is built:
// the member it shows (`rep`) and the outcome, by the outcome rules.
struct Choice {
  const RawObligation* rep = nullptr;
  Outcome outcome = Outcome::Proven;
  bool zero_warning = false;
  bool uncalled_only = false;
  bool without_z3 = true;
  bool refuted_only_uncalled = true;
  int contexts = 0;
};

Choice choose(const std::vector<const RawObligation*>& members) {
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
  Choice c;
  c.rep = members.front();
  if (normal_refuted) {
    c.rep = normal_refuted;
    c.outcome = Outcome::Error;
  } else if (batch_refuted) {
    c.rep = batch_refuted;
    c.outcome = Outcome::Warning;
  } else if (handled_refuted) {
    c.rep = handled_refuted;
    c.outcome = Outcome::Warning;
  } else if (deferred && zero_only) {
    c.rep = deferred;
    c.outcome = Outcome::Warning;
    c.zero_warning = true;
    c.uncalled_only = deferred_only_uncalled;
  } else if (deferred) {
    c.rep = deferred;
    c.outcome = Outcome::Deferred;
    c.uncalled_only = deferred_only_uncalled;
  } else {
    c.outcome = Outcome::Proven;
  }
  c.without_z3 = without_z3;
  c.refuted_only_uncalled = refuted_only_uncalled;
  c.contexts = static_cast<int>(evaluations.size());
  return c;
}

// The merged obligation of a choice: the shown member's obligation, copied,
// or moved out of `spend` (the obligations `rep` points into) when given.
AnalysedObligation merge_members(const Choice& c, std::vector<Obligation>* spend) {
  const RawObligation* rep = c.rep;
  bool zero_warning = c.zero_warning;
  bool refuted_only_uncalled = c.refuted_only_uncalled;
  AnalysedObligation out;
  out.outcome = c.outcome;
  out.uncalled_only = c.uncalled_only;
  if (spend)
    out.ob = std::move((*spend)[static_cast<std::size_t>(rep->ob - spend->data())]);
  else
    out.ob = *rep->ob;
  // (rep->ob is not read from here on: it may have been moved from)
  out.ob.decided_without_z3 = c.without_z3;
  if (out.ob.status == Status::Deferred && out.ob.origin.empty() &&
      out.ob.reason.rfind("the solver could not decide", 0) == 0)
    out.ob.origin = "solver";
  out.contexts = c.contexts;
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
                                           std::string(python_error_of(out.ob.tag)) + " is caught here (" +
                                           rep->handled_what + "): the program falls back instead of crashing"});
  } else if (zero_warning) {
    // holds only at size 0: still checked at run time
    const std::vector<std::string>& names = out.ob.zero_only;
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
// (file, line, column, begin, end, tag): views of the raw obligations'
// strings, which outlive the merge (copies cost an allocation per group)
using GroupKey = std::tuple<std::string_view, uint32_t, uint32_t, uint32_t, uint32_t, std::string_view>;
using Groups = std::map<GroupKey, std::vector<const RawObligation*>>;

GroupKey group_key(const RawObligation& r) {
  const SourceLoc& l = r.ob->loc;
  return {l.file ? std::string_view(l.file->path()) : std::string_view(), l.line, l.column, l.begin, l.end,
          std::string_view(r.ob->tag)};
}

Groups groups_of(const std::vector<RawObligation>& raw) {
  Groups groups;
  for (const RawObligation& r : raw) groups[group_key(r)].push_back(&r);
  return groups;
}

// The constraint texts of a group's members, in order (each rendered once).
std::vector<std::string> texts_of(const std::vector<const RawObligation*>& members) {
  std::vector<std::string> texts;
  texts.reserve(members.size());
  for (const RawObligation* r : members) texts.push_back(r->ob->constraint_sexpr());
  return texts;
}

// Whether the analyses of a site agree on the constraint texts they emitted
// (then the members are merged per text); `texts` are the members'.
bool uniform(const std::vector<const RawObligation*>& members, const std::vector<std::string>& texts) {
  std::map<int, std::set<std::string_view>> by_evaluation;
  for (std::size_t i = 0; i < members.size(); ++i) by_evaluation[members[i]->evaluation].insert(texts[i]);
  for (const auto& [e, distinct] : by_evaluation)
    if (distinct != by_evaluation.begin()->second) return false;
  return true;
}

// A uniform group's members split per constraint text, the texts in the
// order they first occur, the members of each in theirs.
std::vector<std::pair<std::string_view, std::vector<std::size_t>>> split_by_text(const std::vector<std::string>& texts) {
  std::vector<std::pair<std::string_view, std::vector<std::size_t>>> out;
  std::map<std::string_view, std::size_t> index;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    auto [it, fresh] = index.emplace(texts[i], out.size());
    if (fresh) out.push_back({texts[i], {}});
    out[it->second].second.push_back(i);
  }
  return out;
}
}  // namespace

std::vector<std::size_t> skipped_proofs_that_matter(const std::vector<RawObligation>& raw) {
  bool any = false;
  for (const RawObligation& r : raw) any = any || r.ob->proof_skipped;
  std::vector<std::size_t> out;
  if (!any) return out;
  auto index_of = [&](const RawObligation* r) { return static_cast<std::size_t>(r - raw.data()); };
  for (const auto& [key, members] : groups_of(raw)) {
    bool skipped = false;
    for (const RawObligation* r : members) skipped = skipped || r->ob->proof_skipped;
    if (!skipped) continue;
    std::vector<std::string> texts = texts_of(members);
    if (!uniform(members, texts)) {
      for (const RawObligation* r : members)
        if (r->ob->proof_skipped) out.push_back(index_of(r));
      continue;
    }
    for (const auto& [text, positions] : split_by_text(texts)) {
      // what merge_members reads of deferred members, settled by the decided ones?
      bool refuted = false, first_settled = false, zero_settled = false, uncalled_settled = false;
      bool seen_deferred = false;
      for (std::size_t k : positions) {
        const RawObligation& r = *members[k];
        if (r.ob->status == Status::Refuted) refuted = true;
        if (r.ob->status != Status::Deferred) continue;
        if (!seen_deferred) first_settled = !r.ob->proof_skipped;
        seen_deferred = true;
        if (r.ob->proof_skipped) continue;
        zero_settled = zero_settled || r.ob->zero_only.empty();
        uncalled_settled = uncalled_settled || !r.uncalled;
      }
      if (refuted) continue;  // a refuted member is the one merged
      for (std::size_t k : positions) {
        const RawObligation& r = *members[k];
        if (!r.ob->proof_skipped) continue;
        if (!first_settled || !zero_settled || (!uncalled_settled && !r.uncalled)) out.push_back(index_of(&r));
      }
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {
// What each merged obligation merges, grouped by site and tag in a stable
// order: its choice (the member it shows and its outcome). Counted before
// any obligation is built, so that the output is allocated once, at its
// size (grown by doubling, its last two buffers were the peak of memory on
// a large file).
std::vector<Choice> merge_choices(const std::vector<RawObligation>& raw) {
  std::vector<Choice> choices;
  for (const auto& [key, members] : groups_of(raw)) {
    if (members.size() == 1) {  // (uniform, one text: nothing to render)
      choices.push_back(choose(members));
      continue;
    }
    // each analysis of the site: the set of constraint texts it emitted for the tag
    std::vector<std::string> texts = texts_of(members);
    if (uniform(members, texts)) {
      for (const auto& [text, positions] : split_by_text(texts)) {
        std::vector<const RawObligation*> same;
        same.reserve(positions.size());
        for (std::size_t k : positions) same.push_back(members[k]);
        choices.push_back(choose(same));
      }
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
    choices.push_back(choose(worst));
  }
  return choices;
}

// The merged obligations of `choices`, sorted by file, line, column and tag
// (stably), their ids their positions.
std::vector<AnalysedObligation> build(const std::vector<Choice>& choices, std::vector<Obligation>* spend) {
  std::vector<AnalysedObligation> out;
  out.reserve(choices.size());
  for (const Choice& c : choices) out.push_back(merge_members(c, spend));
  // the order sorted as indices, then applied in place (a stable sort of
  // the obligations themselves takes a buffer of half of them)
  std::vector<std::size_t> order(out.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) {
    const SourceLoc& la = out[i].ob.loc;
    const SourceLoc& lb = out[j].ob.loc;
    std::string_view pa = la.file ? std::string_view(la.file->path()) : std::string_view();
    std::string_view pb = lb.file ? std::string_view(lb.file->path()) : std::string_view();
    return std::tie(pa, la.line, la.column, out[i].ob.tag) < std::tie(pb, lb.line, lb.column, out[j].ob.tag);
  });
  // position k receives the obligation at order[k], cycle by cycle
  std::vector<char> placed(out.size(), 0);
  for (std::size_t start = 0; start < out.size(); ++start) {
    if (placed[start]) continue;
    placed[start] = 1;
    if (order[start] == start) continue;
    AnalysedObligation held = std::move(out[start]);
    std::size_t k = start;
    while (order[k] != start) {
      out[k] = std::move(out[order[k]]);
      k = order[k];
      placed[k] = 1;
    }
    out[k] = std::move(held);
  }
  for (std::size_t i = 0; i < out.size(); ++i) out[i].ob.id = static_cast<int>(i);
  return out;
}
}  // namespace

std::vector<AnalysedObligation> merge_obligations(const std::vector<RawObligation>& raw) {
  return build(merge_choices(raw), nullptr);
}

std::optional<std::vector<AnalysedObligation>> merge_obligations_spending(const std::vector<RawObligation>& raw,
                                                                          std::vector<Obligation>& obligations) {
  std::vector<Choice> choices = merge_choices(raw);
  for (const Choice& c : choices)
    if (c.rep->ob->proof_skipped) return std::nullopt;
  return build(choices, &obligations);
}

}  // namespace gshape::gradual
