// Building plans: the sites of each module (codegen/expression_index.h),
// kept unless the analysis proved them safe.
#include "codegen/plan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "codegen/expression_index.h"
#include "gradual/operator_rules.h"

namespace gshape::codegen {

const char* check_status_name(CheckStatus s) { return s == CheckStatus::Refuted ? "refuted" : "deferred"; }

namespace {

using Range = std::pair<uint32_t, uint32_t>;

std::string argument_kind(const ir::Argument& a) {
  switch (a.type) {
    case ir::Argument::Type::Positional: return "arg";
    case ir::Argument::Type::Keyword: return a.name + "=";
    case ir::Argument::Type::Star: return "*";
    case ir::Argument::Type::DoubleStar: return "**";
  }
  return "arg";
}

// The rule and operands of one site; nullopt when no rule checks it (an
// operator the registry has no rule for).
std::optional<SitePlan> site_of(const ir::Node* node) {
  SitePlan s;
  s.begin = node->loc.begin;
  s.end = node->loc.end;
  SourceLoc shown = ir::reported_loc(node);
  s.line = shown.line;
  s.col = shown.column;
  auto add = [&](const ir::Expr* e, std::string kind) {
    OperandPlan o;
    o.slot = static_cast<int>(s.operands.size());
    o.begin = e ? e->loc.begin : 0;
    o.end = e ? e->loc.end : 0;
    o.kind = std::move(kind);
    s.operands.push_back(std::move(o));
  };
  switch (node->kind) {
    case ir::Kind::Call: {
      const auto* c = ir::cast<ir::Call>(node);
      add(c->func, "callee");
      for (const ir::Argument& a : c->args) add(a.value, argument_kind(a));
      break;
    }
    case ir::Kind::BinOp: {
      const auto* b = ir::cast<ir::BinOp>(node);
      s.rule = gradual::binary_operator_rule(b->op, false);
      add(b->left, "arg");
      add(b->right, "arg");
      break;
    }
    case ir::Kind::AugAssign: {
      const auto* a = ir::cast<ir::AugAssign>(node);
      s.rule = gradual::binary_operator_rule(a->op, true);
      add(a->target, "arg");
      add(a->value, "arg");
      break;
    }
    case ir::Kind::UnaryOp: {
      const auto* u = ir::cast<ir::UnaryOp>(node);
      s.rule = gradual::unary_operator_rule(u->op);
      add(u->operand, "arg");
      break;
    }
    case ir::Kind::Subscript: {
      const auto* x = ir::cast<ir::Subscript>(node);
      s.rule = "operator.getitem";
      add(x->value, "arg");
      add(x->index, "arg");
      break;
    }
    case ir::Kind::Assign: {  // `x[i] = v`, or `a, b = v`
      const auto* a = ir::cast<ir::Assign>(node);
      if (a->targets.size() != 1) return std::nullopt;
      if (a->targets.front()->kind == ir::Kind::Tuple || a->targets.front()->kind == ir::Kind::List) {
        s.rule = gradual::unpack_rule(a->targets.front());
        if (s.rule.empty()) return std::nullopt;
        add(a->value, "arg");
        break;
      }
      if (a->targets.front()->kind != ir::Kind::Subscript) return std::nullopt;
      const auto* x = ir::cast<ir::Subscript>(a->targets.front());
      s.rule = "operator.setitem";
      add(x->value, "arg");
      add(x->index, "arg");
      add(a->value, "arg");
      break;
    }
    case ir::Kind::If: case ir::Kind::While: case ir::Kind::Assert: case ir::Kind::IfExp: {  // the test's truth
      const ir::Expr* test = node->kind == ir::Kind::If      ? ir::cast<ir::If>(node)->test
                             : node->kind == ir::Kind::While ? ir::cast<ir::While>(node)->test
                             : node->kind == ir::Kind::Assert ? ir::cast<ir::Assert>(node)->test
                                                              : ir::cast<ir::IfExp>(node)->test;
      s.rule = gradual::truth_test_rule(test);
      add(test, "arg");
      break;
    }
    case ir::Kind::For: {  // `for a, b in items`: every item unpacked
      const auto* f = ir::cast<ir::For>(node);
      s.rule = gradual::iter_unpack_rule(f->target);
      add(f->iter, "arg");
      break;
    }
    case ir::Kind::Attribute: {  // `x.mT`: the read's rule, on the receiver
      const auto* a = ir::cast<ir::Attribute>(node);
      s.rule = gradual::tensor_attribute_rule(a->attr, true);
      add(a->value, "arg");
      break;
    }
    case ir::Kind::Compare: {
      const auto* c = ir::cast<ir::Compare>(node);
      if (c->ops.size() != 1 || c->comparators.size() != 1) return std::nullopt;
      s.rule = gradual::comparison_rule(c->ops.front());
      add(c->left, "arg");
      add(c->comparators.front(), "arg");
      break;
    }
    default: return std::nullopt;
  }
  if (node->kind != ir::Kind::Call && s.rule.empty()) return std::nullopt;
  return s;
}

std::string reason_of(const gradual::SiteSummary* summary, bool not_proven, const PlanOptions& options) {
  if (!summary || summary->visits == 0) return "the analysis did not reach it";
  if (not_proven || summary->not_proven) return "a requirement is not proven";
  if (summary->unresolved) return summary->what.empty() ? "what it calls is not known" : summary->what;
  if (summary->unmodelled) {
    std::string rules;
    for (const std::string& r : summary->rules) rules += (rules.empty() ? "" : ", ") + r;
    return "the rule " + rules + " could not be applied to its arguments";
  }
  if (options.check_proven) return "checked on request (--check-proven)";
  return {};
}

}  // namespace

FilePlan plan_every_site(const std::string& path, const ir::Module& module) {
  FilePlan plan;
  plan.path = path;
  ExpressionIndex index(module);
  for (const ir::Node* node : index.sites()) {
    if (std::optional<SitePlan> s = site_of(node)) {
      s->reason = "checked on request";
      plan.sites.push_back(std::move(*s));
    }
  }
  std::stable_sort(plan.sites.begin(), plan.sites.end(), [](const SitePlan& a, const SitePlan& b) {
    return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
  });
  return plan;
}

std::vector<FilePlan> build_plans(const Project& project, const std::vector<gradual::Obligation>& obligations,
                                  const std::vector<gradual::SiteSummary>& sites, const PlanOptions& options) {
  std::map<std::string, std::map<Range, const gradual::SiteSummary*>> summaries;
  for (const gradual::SiteSummary& s : sites)
    if (s.loc.valid()) summaries[s.loc.file->path()][{s.loc.begin, s.loc.end}] = &s;
  std::map<std::string, std::map<Range, std::vector<const gradual::Obligation*>>> at;
  // A parameter annotation's obligations are stated at each call site but
  // checked at the function's entry, whoever calls: by rule name.
  std::map<std::string, std::vector<const gradual::Obligation*>> entry_obligations;
  std::set<std::string> entry_rules;
  std::vector<gradual::AnnotatedStatements> annotated_of(project.modules.size());
  for (std::size_t i = 0; i < project.modules.size(); ++i) {
    if (!project.modules[i].ir) continue;
    annotated_of[i] = gradual::annotated_statements(*project.modules[i].ir);
    for (const auto& e : annotated_of[i].entries) entry_rules.insert(e.annotations.entry_rule());
  }
  for (const gradual::Obligation& ob : obligations) {
    if (entry_rules.count(ob.rule)) entry_obligations[ob.rule].push_back(&ob);
    else if (ob.loc.valid()) at[ob.loc.file->path()][{ob.loc.begin, ob.loc.end}].push_back(&ob);
  }

  std::vector<FilePlan> plans;
  for (std::size_t module = 0; module < project.modules.size(); ++module) {
    const ProjectModule& m = project.modules[module];
    if (!m.ir) continue;
    FilePlan plan;
    plan.path = m.file->path();
    const auto& file_summaries = summaries[plan.path];
    const auto& file_obligations = at[plan.path];
    std::set<Range> planned;
    // what the analysis says of the site at `range`
    struct Evidence {
      const gradual::SiteSummary* summary = nullptr;
      const std::vector<const gradual::Obligation*>* obligations = nullptr;
      bool not_proven = false, refuted = false;
      bool needs_check = false;
    };
    auto evidence = [&](Range range) {
      Evidence e;
      auto found = file_summaries.find(range);
      if (found != file_summaries.end()) e.summary = found->second;
      auto obs = file_obligations.find(range);
      if (obs != file_obligations.end()) {
        e.obligations = &obs->second;
        for (const gradual::Obligation* ob : obs->second) {
          e.not_proven = e.not_proven || ob->status != gradual::Status::Proven;
          e.refuted = e.refuted || ob->status == gradual::Status::Refuted;
        }
      }
      e.needs_check = options.check_proven || e.not_proven || !e.summary || e.summary->needs_check();
      return e;
    };
    ExpressionIndex index(*m.ir);
    for (const ir::Node* node : index.sites()) {
      Range range{node->loc.begin, node->loc.end};
      Evidence ev = evidence(range);
      if (!ev.needs_check) continue;
      // A site no check can cover: left as written, its requirements
      // reported "not instrumentable" with the reason. TorchScript compiles
      // the original source and runs it without Python (a check could not
      // run, and would not compile, there); a partial or a hooked module
      // hides from the check what the call really receives.
      const char* why = nullptr;
      if (ev.summary && ev.summary->compiled_visits > 0)
        why = ev.summary->visits > ev.summary->compiled_visits ? kCompiledByTorchScriptAndPython : kCompiledByTorchScript;
      else if (ev.summary && ev.summary->partial_visits > 0)
        why = kCalledThroughPartial;
      else if (ev.summary && ev.summary->hooked_visits > 0)
        why = kCallsAHookedModule;
      if (why) {
        planned.insert(range);
        if (ev.obligations)
          for (const gradual::Obligation* ob : *ev.obligations)
            if (ob->status != gradual::Status::Proven) plan.rejected.push_back({ob->id, std::string(why)});
        continue;
      }
      std::optional<SitePlan> s = site_of(node);
      if (!s) continue;
      if (ev.obligations)
        for (const gradual::Obligation* ob : *ev.obligations) s->obligations.push_back(ob->id);
      s->status = ev.refuted ? CheckStatus::Refuted : CheckStatus::Deferred;
      s->reason = reason_of(ev.summary, ev.not_proven, options);
      planned.insert(range);
      plan.sites.push_back(std::move(*s));
    }
    // shape annotations: entry checks, always (they cover callers the analysis
    // does not see); returns and annotated assignments, unless proven
    const gradual::AnnotatedStatements& annotated = annotated_of[module];
    for (const auto& e : annotated.entries) {
      SitePlan site;
      site.begin = e.def->loc.begin;
      site.end = e.def->loc.end;
      site.line = e.def->name_loc.line;
      site.col = e.def->name_loc.column;
      site.rule = e.annotations.entry_rule();
      for (const gradual::AnnotatedParam& p : e.annotations.params) {
        OperandPlan o;
        o.slot = static_cast<int>(site.operands.size());
        o.name = p.name;
        site.operands.push_back(std::move(o));
      }
      bool refuted = false;
      for (const gradual::Obligation* ob : entry_obligations[site.rule]) {
        site.obligations.push_back(ob->id);
        refuted = refuted || ob->status == gradual::Status::Refuted;
      }
      site.status = refuted ? CheckStatus::Refuted : CheckStatus::Deferred;
      site.reason = "the parameter annotations of " + e.def->name + ", checked on entry whoever calls";
      site.entry_form = e.annotations.entry.form;
      if (site.entry_form == gradual::EntryPlacement::Form::Statement) {
        site.entry_begin = site.entry_end = e.annotations.entry.offset;
      } else {
        site.entry_begin = e.annotations.entry.expr->loc.begin;
        site.entry_end = e.annotations.entry.expr->loc.end;
      }
      site.entry_key = e.def->loc.begin;
      plan.sites.push_back(std::move(site));
    }
    for (const auto& c : annotated.checked) {
      Range range{c.stmt->loc.begin, c.stmt->loc.end};
      Evidence ev = evidence(range);
      planned.insert(range);  // its proven obligations are not "at no site"
      if (!ev.needs_check) continue;
      SitePlan site;
      site.begin = c.stmt->loc.begin;
      site.end = c.stmt->loc.end;
      site.line = c.stmt->loc.line;
      site.col = c.stmt->loc.column;
      site.rule = c.rule;
      std::optional<gradual::AnnotationCheck> check = gradual::parse_annotation_rule_name(c.rule);
      std::size_t count = check ? check->operands.size() : 1;
      for (std::size_t k = 0; k < count; ++k) {
        OperandPlan o;
        o.slot = static_cast<int>(k);
        if (k == 0) {
          o.begin = c.value->loc.begin;
          o.end = c.value->loc.end;
        } else {
          o.from_entry = true;
        }
        site.operands.push_back(std::move(o));
      }
      if (ev.obligations)
        for (const gradual::Obligation* ob : *ev.obligations) site.obligations.push_back(ob->id);
      site.status = ev.refuted ? CheckStatus::Refuted : CheckStatus::Deferred;
      site.reason = reason_of(ev.summary, ev.not_proven, options);
      site.reads_entry_of = c.reads_entry_of;
      plan.sites.push_back(std::move(site));
    }
    // a requirement that is not at a call or operator (`x.T`) gets no check
    for (const auto& [range, list] : file_obligations) {
      if (planned.count(range)) continue;
      for (const gradual::Obligation* ob : list) {
        if (ob->status == gradual::Status::Proven) continue;
        plan.rejected.push_back({ob->id, "the requirement is not at a call or an operator, where checks go"});
      }
    }
    if (plan.sites.empty() && plan.rejected.empty()) continue;
    std::stable_sort(plan.sites.begin(), plan.sites.end(), [](const SitePlan& a, const SitePlan& b) {
      return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
    });
    plans.push_back(std::move(plan));
  }
  std::sort(plans.begin(), plans.end(), [](const FilePlan& a, const FilePlan& b) { return a.path < b.path; });
  return plans;
}

}  // namespace gshape::codegen
