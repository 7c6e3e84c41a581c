#include "runtime/check_table.h"

#include <algorithm>
#include <utility>

namespace gshape::runtime {

namespace {

std::string location(const std::string& path, const CheckSpec& spec) {
  return path + ":" + std::to_string(spec.line) + ":" + std::to_string(spec.col);
}

bool has_kind(const Operand& operand, Need need) {
  switch (need) {
    case Need::Shape: return operand.is_shape();
    case Need::Int: return operand.is_int();
    case Need::Sized: return operand.is_sized();
    case Need::Sequence: return operand.is_sequence();
    case Need::Object: return operand.kind != OperandKind::Unset;
  }
  return false;
}

}  // namespace

CheckTable::CheckTable(std::string path, std::vector<std::vector<CheckSpec>> sites) : path_(std::move(path)) {
  sites_.resize(sites.size());
  for (std::size_t s = 0; s < sites.size(); ++s) {
    Site& site = sites_[s];
    site.first_check = checks_.size();
    site.check_count = sites[s].size();
    std::size_t slot_count = 0;
    for (std::size_t i = 0; i < sites[s].size(); ++i) {
      Check c;
      c.site = s;
      c.index_in_site = i;
      c.spec = std::move(sites[s][i]);
      try {
        c.constraint = Expr::parse(c.spec.constraint);
      } catch (const ConstraintSyntaxError& e) {
        throw CheckTableError(location(path_, c.spec) + ": malformed constraint '" + c.spec.constraint +
                              "' (site " + std::to_string(s) + ", check " + std::to_string(i) + "): " + e.what());
      }
      if (!c.constraint.is_condition())
        throw CheckTableError(location(path_, c.spec) + ": malformed constraint '" + c.spec.constraint +
                              "' (site " + std::to_string(s) + ", check " + std::to_string(i) +
                              "): it is an integer, not a condition");
      try {
        c.message = MessageTemplate::parse(c.spec.message);
      } catch (const ConstraintSyntaxError& e) {
        throw CheckTableError(location(path_, c.spec) + ": malformed message template '" + c.spec.message +
                              "' (site " + std::to_string(s) + ", check " + std::to_string(i) + "): " + e.what());
      }
      slot_count = std::max({slot_count, c.constraint.slot_count(), c.message.slot_count(),
                             c.spec.slot_names ? c.spec.slot_names->size() : std::size_t{0}});
      checks_.push_back(std::move(c));
    }
    site.slots.resize(slot_count);
    // Each (attr K NAME) learns where slot K keeps NAME's value; recording
    // the operand then reads exactly those attributes.
    auto index_of = [&site](uint16_t slot, const std::string& name) { return site.slots[slot].attr_index(name); };
    for (std::size_t i = site.first_check; i < checks_.size(); ++i) {
      checks_[i].constraint.resolve_attrs(index_of);
      checks_[i].message.resolve_attrs(index_of);
    }
  }
}

bool CheckTable::readable(const Check& c, const std::vector<Operand>& slots) const {
  for (const SlotNeed& need : c.constraint.needs())
    if (!has_kind(slots[need.slot], need.need)) return false;
  return true;
}

void CheckTable::evaluate(std::size_t site_index, const void* frame, std::vector<std::size_t>& failed) {
  failed.clear();
  Site& site = sites_[site_index];
  for (Operand& operand : site.slots)
    if (operand.kind != OperandKind::Unset && operand.frame != frame) operand.set_unset();
  const Operand* operands = site.slots.data();
  const std::size_t count = site.slots.size();
  for (std::size_t i = site.first_check; i < site.first_check + site.check_count; ++i) {
    Check& c = checks_[i];
    ++c.counters.runs;
    if (!readable(c, site.slots)) {
      ++c.counters.skipped;
      continue;
    }
    Value v = c.constraint.evaluate(operands, count);
    if (!v.known) {
      ++c.counters.skipped;
    } else if (v.v == 0) {
      ++c.counters.failures;
      failed.push_back(i);
    }
  }
}

std::string CheckTable::filled_message(std::size_t check_index) const {
  const Check& c = checks_[check_index];
  const std::vector<Operand>& slots = sites_[c.site].slots;
  std::string out;
  c.message.render(out, slots.data(), slots.size());
  return out;
}

std::string CheckTable::failure_message(std::size_t check_index) const {
  const Check& c = checks_[check_index];
  const std::vector<Operand>& slots = sites_[c.site].slots;
  std::string out = location(path_, c.spec) + ": ";
  if (!c.spec.tag.empty()) out += "[" + c.spec.tag + "] ";
  c.message.render(out, slots.data(), slots.size());

  std::string described;
  auto describe = [&](std::string_view name, const Operand& operand) {
    if (!described.empty()) described += ", ";
    append_description(described, name, operand);
  };
  if (c.spec.slot_names) {
    const auto& names = *c.spec.slot_names;
    for (std::size_t k = 0; k < names.size() && k < slots.size(); ++k)
      if (names[k] && !names[k]->empty()) describe(*names[k], slots[k]);
  } else {
    std::vector<std::size_t> read;
    for (const SlotNeed& need : c.constraint.needs()) read.push_back(need.slot);
    std::sort(read.begin(), read.end());
    read.erase(std::unique(read.begin(), read.end()), read.end());
    for (std::size_t k : read) describe("operand " + std::to_string(k), slots[k]);
  }
  if (!described.empty()) out += " (" + described + ")";
  return out;
}

void CheckTable::clear(std::size_t site) {
  for (Operand& operand : sites_[site].slots) operand.set_unset();
}

}  // namespace gshape::runtime
