// Building plans from the analysis' obligations.
#include "codegen/plan.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace gshape::codegen {

const char* check_status_name(CheckStatus s) { return s == CheckStatus::Refuted ? "refuted" : "deferred"; }

namespace {

std::string slot_label(const gradual::SlotInfo& slot) {
  std::string label = "operand " + std::to_string(slot.slot);
  if (!slot.description.empty()) label += " (" + slot.description + ")";
  return label;
}

using SiteKey = std::tuple<uint32_t, uint32_t>;

struct FileBuilder {
  FilePlan plan;
  std::map<SiteKey, std::size_t> site_index;
};

CheckPlan check_of(const gradual::Obligation& ob) {
  CheckPlan check;
  check.line = ob.loc.line;
  check.col = ob.loc.column;
  check.tag = ob.tag;
  check.constraint = ob.constraint_sexpr();
  check.message = ob.message_template();
  check.obligation_id = ob.id;
  check.status = ob.status == gradual::Status::Refuted ? CheckStatus::Refuted : CheckStatus::Deferred;
  std::set<int> slots;
  for (int s : gradual::slots_of(ob.constraint.expr())) slots.insert(s);
  for (int s : ob.message.slots()) slots.insert(s);
  for (const gradual::SlotInfo& info : ob.slots) {
    if (info.slot < 0) continue;
    slots.insert(info.slot);
    if (check.slot_names.size() <= static_cast<std::size_t>(info.slot)) check.slot_names.resize(info.slot + 1);
    if (!info.description.empty()) check.slot_names[info.slot] = info.description;
  }
  check.slots.assign(slots.begin(), slots.end());
  return check;
}

// Adds `ob`'s operands to `site`; the reason it cannot, or "".
std::string merge_operands(const gradual::Obligation& ob, const CheckPlan& check, SitePlan& site) {
  std::vector<OperandPlan> found;
  for (int slot : check.slots) {
    auto info = std::find_if(ob.slots.begin(), ob.slots.end(),
                             [&](const gradual::SlotInfo& s) { return s.slot == slot; });
    if (info == ob.slots.end()) {
      return "the check reads operand " + std::to_string(slot) + ", which the analysis did not describe";
    }
    std::optional<SourceLoc> loc = operand_location(*info);
    if (!loc) return "the analysis gave no source location for " + slot_label(*info);
    if (loc->file != ob.loc.file) return slot_label(*info) + " lies in another file than the call";
    OperandPlan operand;
    operand.slot = slot;
    operand.begin = loc->begin;
    operand.end = loc->end;
    operand.description = info->description;
    auto same_slot = std::find_if(site.operands.begin(), site.operands.end(),
                                  [&](const OperandPlan& o) { return o.slot == slot; });
    if (same_slot != site.operands.end() && (same_slot->begin != operand.begin || same_slot->end != operand.end)) {
      return "two obligations of this call disagree on where " + slot_label(*info) + " is";
    }
    found.push_back(std::move(operand));
  }
  for (OperandPlan& operand : found) {
    auto same_slot = std::find_if(site.operands.begin(), site.operands.end(),
                                  [&](const OperandPlan& o) { return o.slot == operand.slot; });
    if (same_slot == site.operands.end()) site.operands.push_back(std::move(operand));
  }
  return {};
}

}  // namespace

std::optional<SourceLoc> operand_location(const gradual::SlotInfo& slot) {
  // An invalid or empty location: no expression reaches the operand.
  if (slot.loc.valid() && slot.loc.end > slot.loc.begin) return slot.loc;
  return std::nullopt;
}

std::vector<FilePlan> build_plans(const std::vector<gradual::Obligation>& obligations) {
  std::map<std::string, FileBuilder> files;
  for (const gradual::Obligation& ob : obligations) {
    if (ob.status == gradual::Status::Proven) continue;
    if (!ob.loc.valid()) continue;  // nowhere to put a check, nowhere to report it either
    FileBuilder& file = files[ob.loc.file->path()];
    file.plan.path = ob.loc.file->path();
    if (!ob.runtime_checkable()) {
      file.plan.rejected.push_back({ob.id, "the constraint reads a value the runtime cannot reach"});
      continue;
    }
    SiteKey key{ob.loc.begin, ob.loc.end};
    auto [it, inserted] = file.site_index.emplace(key, file.plan.sites.size());
    if (inserted) {
      SitePlan site;
      site.begin = ob.loc.begin;
      site.end = ob.loc.end;
      site.line = ob.loc.line;
      site.col = ob.loc.column;
      file.plan.sites.push_back(std::move(site));
    }
    SitePlan& site = file.plan.sites[it->second];
    CheckPlan check = check_of(ob);
    std::string problem = merge_operands(ob, check, site);
    if (!problem.empty()) {
      file.plan.rejected.push_back({ob.id, problem});
      continue;
    }
    site.checks.push_back(std::move(check));
  }
  std::vector<FilePlan> plans;
  for (auto& [path, file] : files) {
    FilePlan& plan = file.plan;
    // A site whose every obligation was rejected has nothing left to check.
    std::erase_if(plan.sites, [](const SitePlan& s) { return s.checks.empty(); });
    std::stable_sort(plan.sites.begin(), plan.sites.end(), [](const SitePlan& a, const SitePlan& b) {
      return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
    });
    for (SitePlan& site : plan.sites) {
      std::sort(site.operands.begin(), site.operands.end(),
                [](const OperandPlan& a, const OperandPlan& b) { return a.slot < b.slot; });
    }
    plans.push_back(std::move(plan));
  }
  return plans;
}

}  // namespace gshape::codegen
