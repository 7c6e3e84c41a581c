#include "codegen/rewriter.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "codegen/expression_index.h"
#include "codegen/import_placement.h"
#include "codegen/nesting_budget.h"
#include "codegen/python_literal.h"
#include "frontend/source_encoding.h"

namespace gshape::codegen {

namespace {

// How an operand's wrapper is spelled (docs/instrumentation.md, "Edits").
enum class WrapForm : uint8_t {
  Plain,            // T.F(S, K, expr)
  Parenthesized,    // T.F(S, K, (expr))           a tuple, walrus, lambda, conditional, yield
  GeneratorArgument,// (T.F(S, K, (x for x in y),))  the generator that is a call's argument list
  SecondReference,  // (T.F(S, K, name,), value)[1]  the name target of `name op= value`
  SliceIndex,       // T.F(S, K, R.index[a:b, i])    a subscript's index holding a slice
  StarredIndex,     // T.F(S, K, (*idx,))            `x[*idx]`: the one-item tuple Python passes (PEP 646)
};

struct ResolvedOperand {
  int slot = -1;
  WrapForm form = WrapForm::Plain;
  uint32_t begin = 0;  // where the wrapper goes: the operand, or the value for SecondReference
  uint32_t end = 0;
  uint32_t rank = 0;   // evaluation order
  std::string name;    // SecondReference: the target name
  std::string problem; // not wrappable: why
};

bool is_identifier_byte(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c >= 0x80;
}

// A wrapper starts with a name; it needs a space when the nearest non-blank
// byte before it on its line would otherwise run into that name (`in(a)`).
bool needs_separator(std::string_view text, uint32_t at) {
  for (std::size_t i = at; i > 0; --i) {
    char c = text[i - 1];
    if (c == ' ' || c == '\t' || c == '\f') continue;
    if (c == '\n' || c == '\r') return false;
    return is_identifier_byte(static_cast<unsigned char>(c));
  }
  return false;
}

// An index of names and constants (`i`, `:, 0`, `k, -1`, `::2`): reading it
// again runs no code.
bool simple_index(const ir::Expr* i) {
  if (!i) return true;  // an omitted slice bound
  switch (i->kind) {
    case ir::Kind::Name: case ir::Kind::Constant: return true;
    case ir::Kind::UnaryOp: return ir::cast<ir::UnaryOp>(i)->operand->kind == ir::Kind::Constant;
    case ir::Kind::Slice: {
      const auto* sl = ir::cast<ir::Slice>(i);
      return simple_index(sl->lower) && simple_index(sl->upper) && simple_index(sl->step);
    }
    case ir::Kind::Tuple:
      for (const ir::Expr* item : ir::cast<ir::Tuple>(i)->elts)
        if (!simple_index(item)) return false;
      return true;
    default: return false;
  }
}

// An expression Python can evaluate a second time to the same value without
// running user code beyond attribute and item lookups: a name, an attribute
// of one (`self.h`), a subscript of one by names and constants (`x[i]`,
// `buf[:, 0]`, `self.state[k, -1]`). A property or a __getitem__ with side
// effects would run twice: an accepted risk, as they are rare on tensors.
bool rereadable(const ir::Expr* e) {
  if (!e) return false;
  switch (e->kind) {
    case ir::Kind::Name: return true;
    case ir::Kind::Attribute: return rereadable(ir::cast<ir::Attribute>(e)->value);
    case ir::Kind::Subscript:
      return rereadable(ir::cast<ir::Subscript>(e)->value) && simple_index(ir::cast<ir::Subscript>(e)->index);
    default: return false;
  }
}

ResolvedOperand resolve(std::string_view text, const ExpressionIndex& index, const OperandPlan& operand) {
  ResolvedOperand r;
  r.slot = operand.slot;
  r.begin = operand.begin;
  r.end = operand.end;
  if (operand.begin >= operand.end || operand.end > text.size()) {
    r.problem = "the operand's source range lies outside the file";
    return r;
  }
  const ExprInfo* info = index.find(operand.begin, operand.end);
  if (!info) {
    r.problem = "the operand's source range is not an expression the rewriter can wrap";
    return r;
  }
  r.begin = info->begin;
  r.end = info->end;
  r.rank = info->eval_rank;
  switch (info->role) {
    case ExprRole::Store:
      r.problem = "the operand is an assignment target";
      return r;
    case ExprRole::Delete:
      r.problem = "the operand is a `del` target";
      return r;
    case ExprRole::AugTarget: {
      const ir::Expr* value = info->aug_value;
      std::string_view target = text.substr(info->begin, info->end - info->begin);
      if (!rereadable(info->node) || !value || target.find_first_of("\r\n#") != std::string_view::npos) {
        r.problem =
            "the operand is the target of an augmented assignment (only a name, an attribute of one or a subscript "
            "by names and constants on one line can be read a second time)";
        return r;
      }
      bool bare_tuple = value->kind == ir::Kind::Tuple && !ir::cast<ir::Tuple>(value)->parenthesized;
      if (bare_tuple || value->kind == ir::Kind::Yield || value->kind == ir::Kind::NamedExpr) {
        r.problem = "the operand is the target of an augmented assignment whose value cannot be wrapped";
        return r;
      }
      // Reading it again has no side effect: pass it a second time, just
      // before the value is evaluated (Python reads the target first too).
      r.form = WrapForm::SecondReference;
      r.name = std::string(target);
      r.begin = value->loc.begin;
      r.end = value->loc.end;
      return r;
    }
    case ExprRole::Load:
      break;
  }
  if (info->in_self_documenting_fstring) {
    r.problem = "the operand is printed by an f-string `{expr=}` field, whose text must not change";
    return r;
  }
  if (info->in_annotation) {
    r.problem = "the operand is in an annotation, which Python may never evaluate or keep as text";
    return r;
  }
  const auto* tuple = info->node && info->node->kind == ir::Kind::Tuple ? ir::cast<ir::Tuple>(info->node) : nullptr;
  std::string_view operand_text = text.substr(info->begin, info->end - info->begin);
  if (tuple && !tuple->parenthesized && tuple->elts.size() == 1 && !operand_text.empty() && operand_text.back() != ',') {
    r.form = WrapForm::StarredIndex;  // `x[*idx]`: a tuple of one starred item, written without its comma
  } else if (info->is_slice) {
    // `a:b` is no expression, but `R.index[a:b]` is the slice object Python
    // passes to __getitem__, built from the same text in the same order
    r.form = WrapForm::SliceIndex;
  } else if (info->is_call_generator_argument) {
    r.form = WrapForm::GeneratorArgument;
  } else if (info->needs_parentheses) {
    r.form = WrapForm::Parenthesized;
  }
  return r;
}

struct Wrapper {
  uint32_t begin = 0;
  uint32_t end = 0;
  int priority = 1;  // 0: SecondReference, outermost among equal ranges
  std::size_t sequence = 0;
  std::string prefix;
  std::string suffix;
};

// `extra` is appended to a check's arguments (`, *_gshape_entry`).
Wrapper make_wrapper(std::string_view text, const ResolvedOperand& op, int site, bool is_check, std::size_t sequence,
                     const std::string& extra = {}) {
  Wrapper w;
  w.begin = op.begin;
  w.end = op.end;
  w.sequence = sequence;
  std::string call = std::string(kTableName) + (is_check ? ".check(" : ".stash(") + std::to_string(site) + ", " +
                     std::to_string(op.slot) + ", ";
  std::string separator = needs_separator(text, op.begin) ? " " : "";
  switch (op.form) {
    case WrapForm::Plain:
      w.prefix = separator + call;
      w.suffix = ")";
      break;
    case WrapForm::Parenthesized:
      w.prefix = separator + call + "(";
      w.suffix = "))";
      break;
    case WrapForm::GeneratorArgument:
      w.prefix = separator + "(" + call;
      w.suffix = ",))";
      break;
    case WrapForm::SecondReference:
      w.prefix = separator + "(" + call + op.name + ",), ";
      w.suffix = ")[1]";
      w.priority = 0;
      break;
    case WrapForm::SliceIndex:
      w.prefix = separator + call + kRuntimeAlias + ".index[";
      w.suffix = "])";
      break;
    case WrapForm::StarredIndex:
      w.prefix = separator + call + "(";
      w.suffix = ",))";
      break;
  }
  if (is_check && !extra.empty() &&
      (op.form == WrapForm::Plain || op.form == WrapForm::Parenthesized || op.form == WrapForm::SliceIndex ||
       op.form == WrapForm::StarredIndex))
    w.suffix = w.suffix.substr(0, w.suffix.size() - 1) + extra + ")";
  return w;
}

constexpr const char* kEntryName = "_gshape_entry";

// The entry check of an annotated function: `T.check_values(S, x, y)`, or
// `T.enter(S, x, y)` (which returns the values) when they are kept.
std::string entry_call(const SitePlan& site, int runtime_site, bool keep) {
  std::string call = std::string(kTableName) + (keep ? ".enter(" : ".check_values(") + std::to_string(runtime_site);
  for (const OperandPlan& o : site.operands) call += ", " + o.name;
  return call + ")";
}

// `(line, col, 'rule' or None, ['callee', 'arg', 'dim=', ...])`
std::string site_literal(const SitePlan& site) {
  std::string out = "(" + std::to_string(site.line) + ", " + std::to_string(site.col) + ", " +
                    (site.rule.empty() ? std::string("None") : python_str(site.rule)) + ", [";
  for (std::size_t i = 0; i < site.operands.size(); ++i) out += (i ? ", " : "") + python_str(site.operands[i].kind);
  return out + "])";
}

struct Edit {
  uint32_t offset;
  int phase;     // 0 header, 1 closing suffixes, 2 opening prefixes
  int64_t order; // within a phase
  const std::string* text;
};

}  // namespace

std::string runtime_header(const std::string& display_path, const std::string& sites_literal) {
  return std::string("import ") + kRuntimeModule + " as " + kRuntimeAlias + "; " + kTableName + " = " +
         kRuntimeAlias + ".CheckTable(" + python_str(display_path) + ", " + sites_literal + ")";
}

namespace {

InstrumentedSource instrument_utf8(std::string_view text, const ir::Module& module, const FilePlan& plan) {
  InstrumentedSource result;
  result.text = std::string(text);
  auto add_rejected = [&]() {
    for (const NotInstrumentable& r : plan.rejected) {
      CheckOutcome o;
      o.obligation_id = r.obligation_id;
      o.reason = r.reason;
      result.outcomes.push_back(std::move(o));
    }
  };
  if (plan.sites.empty()) {
    add_rejected();
    return result;
  }

  ExpressionIndex index(module);
  // Per site: the operands that can be wrapped, in evaluation order. An
  // operand that cannot be (an attribute target of `+=`) is not recorded: the
  // rule then sees an unknown value there and concludes less, never wrongly.
  struct SiteWork {
    std::vector<ResolvedOperand> operands;
    int runtime_site = -1;
  };
  std::vector<SiteWork> work(plan.sites.size());
  std::vector<SiteOutcome> site_outcomes(plan.sites.size());
  int next_site = 0;
  for (std::size_t s = 0; s < plan.sites.size(); ++s) {
    const SitePlan& site = plan.sites[s];
    SiteOutcome& o = site_outcomes[s];
    o.line = site.line;
    o.col = site.col;
    o.rule = site.rule;
    o.why = site.reason;
    o.obligations = site.obligations.size();
    std::string unread;
    if (site.entry_form != gradual::EntryPlacement::Form::None) {  // reads its operands by name
      o.instrumented = true;
      continue;
    }
    for (const OperandPlan& operand : site.operands) {
      if (operand.from_entry || !operand.name.empty()) continue;  // read from `_gshape_entry`
      ResolvedOperand r = resolve(text, index, operand);
      if (r.problem.empty()) {
        work[s].operands.push_back(std::move(r));
      } else if (operand.kind == "callee") {
        o.problem = "the callee cannot be read: " + r.problem;  // without it no rule is found
      } else if (unread.empty()) {
        unread = "operand " + std::to_string(operand.slot) + " cannot be read (" + r.problem + ")";
      }
    }
    if (o.problem.empty() && work[s].operands.empty()) o.problem = unread.empty() ? "the site has no operand" : unread;
    if (!o.problem.empty()) {
      work[s].operands.clear();
      continue;
    }
    o.problem = unread;
    std::sort(work[s].operands.begin(), work[s].operands.end(), [](const ResolvedOperand& a, const ResolvedOperand& b) {
      return std::tie(a.rank, a.slot) < std::tie(b.rank, b.slot);
    });
    o.instrumented = true;
  }

  // The nesting budget (codegen/nesting_budget.h): a site whose wrappers
  // would put code too deep for CPython is not instrumented; outer sites are
  // kept first, so a long chain keeps the checks of its outer operations.
  {
    struct Placed {
      WrapperDepth depth;
      int priority;  // as Wrapper::priority
      std::size_t sequence;
    };
    std::vector<Placed> placed;
    for (std::size_t s = 0; s < plan.sites.size(); ++s) {
      if (!site_outcomes[s].instrumented) continue;
      const SitePlan& site = plan.sites[s];
      if (site.entry_form == gradual::EntryPlacement::Form::Expression) {
        // `((_gshape_entry := T.enter(S, ...)), (expr))[-1]`
        placed.push_back({{site.entry_begin, site.entry_end, 2, 3, s}, -1, placed.size()});
        continue;
      }
      if (site.entry_form != gradual::EntryPlacement::Form::None) continue;  // a statement of its own
      for (const ResolvedOperand& op : work[s].operands) {
        uint32_t inner = op.form == WrapForm::Plain || op.form == WrapForm::SecondReference ? 1 : 2;
        uint32_t own = op.form == WrapForm::Plain ? 1 : 2;
        placed.push_back({{op.begin, op.end, inner, own, s}, op.form == WrapForm::SecondReference ? 0 : 1, placed.size()});
      }
    }
    std::sort(placed.begin(), placed.end(), [](const Placed& a, const Placed& b) {
      return std::make_tuple(a.depth.begin, -static_cast<int64_t>(a.depth.end), a.priority, a.sequence) <
             std::make_tuple(b.depth.begin, -static_cast<int64_t>(b.depth.end), b.priority, b.sequence);
    });
    std::vector<WrapperDepth> depths;
    depths.reserve(placed.size());
    for (const Placed& p : placed) depths.push_back(p.depth);
    std::vector<DepthVerdict> verdicts = sites_over_budget(text, depths, plan.sites.size(), index.too_deep());
    for (std::size_t s = 0; s < plan.sites.size(); ++s) {
      if (verdicts[s].reached == 0 && !verdicts[s].holds_too_deep) continue;
      site_outcomes[s].instrumented = false;
      site_outcomes[s].nested_too_deep = true;
      site_outcomes[s].problem = nesting_problem(verdicts[s]);
      work[s].operands.clear();
    }
  }
  for (std::size_t s = 0; s < plan.sites.size(); ++s) {
    if (site_outcomes[s].instrumented) work[s].runtime_site = next_site++;
  }
  // every obligation of a site shares its outcome
  auto obligation_outcomes = [&]() {
    for (std::size_t s = 0; s < plan.sites.size(); ++s) {
      for (int id : plan.sites[s].obligations) {
        CheckOutcome c;
        c.obligation_id = id;
        c.status = plan.sites[s].status;
        c.line = plan.sites[s].line;
        c.col = plan.sites[s].col;
        c.instrumented = site_outcomes[s].instrumented;
        c.runtime_site = work[s].runtime_site;
        if (!c.instrumented) c.reason = site_outcomes[s].problem;
        result.outcomes.push_back(std::move(c));
      }
    }
  };

  // Annotated functions: a return or annotated assignment reads the
  // parameters' values at entry when the entry check keeps them.
  std::map<int64_t, std::size_t> entry_sites;  // entry key → site
  for (std::size_t s = 0; s < plan.sites.size(); ++s)
    if (plan.sites[s].entry_key >= 0 && work[s].runtime_site >= 0) entry_sites[plan.sites[s].entry_key] = s;
  std::set<std::size_t> kept_entries;
  std::vector<std::string> extras(plan.sites.size());
  for (std::size_t s = 0; s < plan.sites.size(); ++s) {
    auto e = entry_sites.find(plan.sites[s].reads_entry_of);
    if (plan.sites[s].reads_entry_of < 0 || work[s].runtime_site < 0 || e == entry_sites.end()) continue;
    kept_entries.insert(e->second);
    extras[s] = std::string(", *") + kEntryName;
  }

  std::vector<Wrapper> wrappers;
  std::vector<std::string> entry_statements;  // Statement-form entry checks
  std::vector<uint32_t> entry_offsets;
  entry_statements.reserve(plan.sites.size());
  for (std::size_t s = 0; s < plan.sites.size(); ++s) {
    const SitePlan& site = plan.sites[s];
    const SiteWork& w = work[s];
    if (site.entry_form != gradual::EntryPlacement::Form::None) {
      if (w.runtime_site < 0) continue;
      bool keep = kept_entries.count(s) > 0;
      std::string call = entry_call(site, w.runtime_site, keep);
      if (site.entry_form == gradual::EntryPlacement::Form::Statement) {
        entry_statements.push_back((keep ? std::string(kEntryName) + " = " : std::string()) + call + "; ");
        entry_offsets.push_back(site.entry_begin);
      } else {
        Wrapper x;
        x.begin = site.entry_begin;
        x.end = site.entry_end;
        x.priority = -1;  // outermost among equal ranges
        x.sequence = wrappers.size();
        std::string first = keep ? "(" + std::string(kEntryName) + " := " + call + ")" : call;
        x.prefix = (needs_separator(text, x.begin) ? " (" : "(") + first + ", (";
        x.suffix = "))[-1]";
        wrappers.push_back(std::move(x));
      }
      continue;
    }
    for (std::size_t k = 0; k < w.operands.size(); ++k) {
      bool last = k + 1 == w.operands.size();
      wrappers.push_back(make_wrapper(text, w.operands[k], w.runtime_site, last, wrappers.size(), last ? extras[s] : ""));
    }
  }
  std::sort(wrappers.begin(), wrappers.end(), [](const Wrapper& a, const Wrapper& b) {
    return std::make_tuple(a.begin, -static_cast<int64_t>(a.end), a.priority, a.sequence) <
           std::make_tuple(b.begin, -static_cast<int64_t>(b.end), b.priority, b.sequence);
  });

  // Operands come from IR nodes, so their ranges nest; check it anyway, as a
  // crossing pair would produce broken code.
  std::vector<const Wrapper*> open;
  bool crossing = false;
  for (const Wrapper& w : wrappers) {
    while (!open.empty() && open.back()->end <= w.begin) open.pop_back();
    if (!open.empty() && w.end > open.back()->end) crossing = true;
    open.push_back(&w);
  }

  std::vector<uint32_t> wrapper_offsets;
  for (const Wrapper& w : wrappers) wrapper_offsets.push_back(w.begin);
  for (uint32_t offset : entry_offsets) wrapper_offsets.push_back(offset);
  std::sort(wrapper_offsets.begin(), wrapper_offsets.end());
  ImportPlacement placement;
  if (!wrapper_offsets.empty() && !crossing) placement = place_runtime_import(module, wrapper_offsets, index.call_begins());

  auto give_up = [&](const std::string& problem) {
    result.problem = problem;
    for (std::size_t s = 0; s < plan.sites.size(); ++s) {
      if (site_outcomes[s].instrumented) {
        site_outcomes[s].instrumented = false;
        site_outcomes[s].problem = problem;
      }
      work[s].runtime_site = -1;
    }
    obligation_outcomes();
    result.site_outcomes = std::move(site_outcomes);
    add_rejected();
    return result;
  };
  if (wrappers.empty() && entry_offsets.empty()) return give_up("");
  if (crossing) return give_up("the operands of two checks overlap without nesting");
  if (placement.form == ImportPlacement::Form::None) return give_up(placement.problem);

  // The check table, one entry per instrumented site, in site order.
  std::string sites = "[";
  for (std::size_t s = 0; s < plan.sites.size(); ++s) {
    if (work[s].runtime_site < 0) continue;
    if (sites.size() > 1) sites += ", ";
    sites += site_literal(plan.sites[s]);
    ++result.sites;
  }
  sites += "]";
  std::string header = header_insertion(placement, runtime_header(plan.path, sites));

  std::vector<Edit> edits;
  edits.reserve(wrappers.size() * 2 + 1);
  edits.push_back({placement.offset, 0, 0, &header});
  for (std::size_t i = 0; i < entry_offsets.size(); ++i)
    edits.push_back({entry_offsets[i], 0, 1 + static_cast<int64_t>(i), &entry_statements[i]});
  for (std::size_t i = 0; i < wrappers.size(); ++i) {
    edits.push_back({wrappers[i].end, 1, -static_cast<int64_t>(i), &wrappers[i].suffix});
    edits.push_back({wrappers[i].begin, 2, static_cast<int64_t>(i), &wrappers[i].prefix});
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) {
    return std::tie(a.offset, a.phase, a.order) < std::tie(b.offset, b.phase, b.order);
  });
  std::string out;
  std::size_t inserted = 0;
  for (const Edit& e : edits) inserted += e.text->size();
  out.reserve(text.size() + inserted);
  uint32_t copied = 0;
  for (const Edit& e : edits) {
    out.append(text.substr(copied, e.offset - copied));
    out += *e.text;
    copied = e.offset;
  }
  out.append(text.substr(copied));
  result.text = std::move(out);
  result.changed = true;
  obligation_outcomes();
  result.site_outcomes = std::move(site_outcomes);
  add_rejected();
  return result;
}

}  // namespace

InstrumentedSource instrument_source(std::string_view text, const ir::Module& module, const FilePlan& plan) {
  InstrumentedSource result = instrument_utf8(text, module, plan);
  const SourceEncoding encoding = module.file().encoding();
  if (encoding == SourceEncoding::Utf8) return result;
  // A file read from latin-1, cp1252 or ascii is written back in it: the
  // inserted text is ASCII, so only a broken conversion can fail.
  if (std::optional<std::string> bytes = encode_source(result.text, encoding)) {
    result.text = std::move(*bytes);
    return result;
  }
  // then the file is left as it is, and says why
  std::string problem = std::string("the instrumented text cannot be written in the file's encoding (") +
                        source_encoding_name(encoding) + ")";
  result.text = encode_source(text, encoding).value_or(std::string(text));
  result.changed = false;
  result.sites = 0;
  result.problem = problem;
  for (SiteOutcome& o : result.site_outcomes) {
    if (!o.instrumented) continue;
    o.instrumented = false;
    o.runtime_site = -1;
    o.problem = problem;
  }
  for (CheckOutcome& o : result.outcomes) {
    if (!o.instrumented) continue;
    o.instrumented = false;
    o.runtime_site = -1;
    o.reason = problem;
  }
  return result;
}

}  // namespace gshape::codegen
