// The abstract interpreter (internal to the analysis): walks the IR of each
// module with abstract values, applies operator rules at call sites, and
// records every obligation with the context it was emitted in. Its parts:
//   interp_stmt.cpp     statements, assignment, branches, asserts, imports, defs
//   interp_expr.cpp     expressions, names, attributes, operators on Python values
//   interp_index.cpp    subscripts of tensors, sequences, containers
//   interp_call.cpp     calls: project functions (memo, recursion), classes, rules
//   interp_library.cpp  builtins and library objects (argparse, DataLoader, nn containers)
//   interp_loops.cpp    for/while: unrolling, fixed points, DataLoader batches
//   interp_join.cpp     joining values and variables after branches and loops
//   interp_sites.cpp    what each call and operator turned out to be; escapes
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "frontend/project.h"
#include "gradual/analysis.h"
#include "gradual/analysis_merge.h"
#include "gradual/annotation_syntax.h"
#include "gradual/call.h"
#include "gradual/interp_callgraph.h"
#include "gradual/interp_join.h"
#include "gradual/interp_objects.h"
#include "gradual/interp_wrappers.h"
#include "gradual/rule_registry.h"
#include "gradual/solver.h"

namespace gshape::gradual::interp {

// Thrown when a work budget runs out; caught at the call or module boundary.
struct BudgetExceeded : std::runtime_error {
  BudgetExceeded() : std::runtime_error("work budget exhausted") {}
};

// One analysed Python module.
struct ModuleState {
  const ProjectModule* project_module = nullptr;
  std::string name;  // dotted
  Vars globals;
  bool started = false;
  std::shared_ptr<ModuleNamespace> ns;
};

// What kind of execution the code is analysed for.
struct Context {
  enum class Kind : uint8_t { Normal, LastBatch };
  Kind kind = Kind::Normal;
  std::string note;    // LastBatch: "fails on the last batch of 40 when drop_last=False"
  std::string detail;  // LastBatch: "the last batch holds 40 samples: len(dataset) = 1000, batch_size = 64"
  SourceLoc loader_loc;
};

// One way through a loop body: the element bound to the target, the context
// it runs in, and the facts that hold in it.
struct IterPass {
  Value element;
  int context = 0;
  std::vector<std::pair<Pred, std::string>> facts;
};

// How a loop runs: unrolled over known items, or passes from a fixed point.
struct IterPlan {
  bool unroll = false;
  std::vector<Value> items;      // unroll
  std::vector<IterPass> passes;  // otherwise: recorded passes from the fixed-point head
  Value head_element;            // what the silent passes bind (covers every pass)
};

// The sample a DataLoader's dataset gives, and its length when known.
struct DatasetView {
  std::optional<Value> sample;
  std::optional<Dim> length;
};

// Per-obligation bookkeeping beside the raw obligation list.
struct RawInfo {
  int context = 0;
  int evaluation = 0;  // one visit of one call site
  // Emitted while analysing the functions nobody in the project calls (their
  // parameters are Dyn: what they receive comes from outside the project).
  bool uncalled = false;
  // Then: the function nobody calls whose analysis emitted it ("test",
  // "Net.check") and where it is defined.
  std::string uncalled_root;
  SourceLoc uncalled_root_loc;
  std::vector<DiagnosticNote> notes;
  // Emitted in the body of a `try:` whose handler catches PyTorch's
  // RuntimeError (`except RuntimeError`, `except Exception`, bare `except:`):
  // that handler's location and how it reads ("except RuntimeError").
  SourceLoc handled_by;
  std::string handled_what;
  // Emitted in the body of an `except` clause itself (that clause's
  // location): it runs only when the try body raised.
  SourceLoc in_handler;
  // The obligation's merge group (site and tag; Interpreter::proof_wanted).
  uint64_t proof_key = 0;
};

// A function activation (or a module's / class body's top-level code).
struct Frame {
  ModuleState* module = nullptr;
  Vars locals;
  Vars* vars = nullptr;  // &locals, or the module's globals at top level
  std::shared_ptr<const Vars> closure;
  std::set<std::string> global_names;
  bool is_class_body = false;
  ClassObject* owner = nullptr;  // the method's class (super())
  Value self;                     // the method's first argument (super())
  bool live = true;               // false after return/raise/break/continue
  bool is_generator = false;      // a yield ran: the call's result is unknown
  std::vector<Value> returns;
  struct Loop {
    std::vector<Vars> breaks;
    std::vector<Vars> continues;
  };
  std::vector<Loop*> loops;
  uint64_t start_steps = 0;
  uint64_t budget = 0;
  // An annotated function: its annotations, and its annotated parameters'
  // values at entry (what a `return` or annotated assignment binds names from).
  const FunctionAnnotations* annotations = nullptr;
  std::vector<Value> entry_values;
  // A function's parameters not rebound yet (name -> index), and those whose
  // list or tensor the body changed in place: the caller's argument changes
  // too (interp_mutation.cpp).
  std::map<std::string, std::size_t> parameter_slots;
  std::set<std::size_t> changed_parameters;
  // Variables an inner function declares `nonlocal`: any call may change
  // them, so each call here leaves them unknown.
  std::set<std::string> nonlocal_shared;
};

// An evaluated call argument.
struct ArgValue {
  ir::Argument::Type type = ir::Argument::Type::Positional;
  std::string name;
  Value value;
  const ir::Expr* expr = nullptr;
  std::vector<Value> elements;  // a list/tuple display: its element values
};

// The receiver of a method or module call and the expression it came from.
struct Receiver {
  Value value;
  const ir::Expr* expr = nullptr;  // nullptr: the runtime cannot reach it
};

class Interpreter {
 public:
  Interpreter(const Project& project, const AnalysisOptions& options);

  void run();  // every module, then every function nobody called

  // Results (read by the analysis driver).
  std::vector<Obligation>& raw_obligations() { return raw_; }
  const std::vector<RawInfo>& raw_info() const { return raw_info_; }
  const std::vector<Context>& contexts() const { return contexts_; }
  const std::map<const ir::Expr*, std::vector<std::string>>& shapes() const { return shapes_; }
  std::vector<Diagnostic>& internal() { return internal_; }
  std::vector<Diagnostic>& advice() { return advice_; }
  std::vector<Diagnostic>& launch_errors() { return launch_errors_; }
  const std::vector<std::pair<Dim, int64_t>>& launch_values() const { return launch_values_; }
  const std::vector<AnalysisResult::ArgumentSymbol>& argument_symbols() const { return argument_symbols_; }
  const std::vector<std::string>& launch_inputs() const { return launch_inputs_; }
  // --args=symbolic without symbolic_command: the sub-commands the parsers declare (first names).
  const std::vector<std::string>& symbolic_commands() const { return symbolic_commands_; }
  const std::vector<std::string>& symbolic_inputs() const { return symbolic_inputs_; }
  // With record_signatures: per project function, the parameters and result
  // of every call analysed with a caller; and the functions some caller of
  // which the analysis did not follow (their samples do not cover them).
  struct CallSample {
    std::vector<Value> params;
    Value result;
  };
  const std::map<const ir::FunctionDef*, std::vector<CallSample>>& call_samples() const { return call_samples_; }
  bool followed_every_call(const ir::FunctionDef* def) const {
    return !generic_done_.count(def) && !incomplete_defs_.count(def);
  }
  AnalysisStats& stats() { return stats_; }
  SolverStats solver_stats() const;
  // The unsat core of a proof the analysis prints (Solver::core_of).
  std::vector<FactRef> core_of(const PendingCore& pending);
  // Decides raw obligation `i`, whose proof was skipped (Solver::resolve_skipped).
  void resolve_skipped(std::size_t i);

  // ---- used by the interp_*.cpp parts
  // statements
  void exec_body(const ir::Body& body);
  void exec(const ir::Stmt* s);
  // `setitem_site`: the statement `x[i] = v` whose subscript target is
  // checked by operator.setitem (a single target; null otherwise).
  // `a, b, c = v` of a tensor or of tensors: as many values as names
  // (operator.unpackN); the statement is the site.
  void check_unpacking(const ir::Assign* a, const Value& v);
  // The unpacking at `site` of `v` (`a, b = v`: operator.unpackN; `for a, b
  // in v`, each item: operator.iter_unpackN) by `rule` when v holds tensors;
  // no rule (empty): no site.
  void check_unpacked(const ir::Node* site, const std::string& rule, const Value& v, const ir::Expr* value_expr);
  // The `contextlib.suppress(...)` call (by name) of a with statement, or
  // null: its body may stop anywhere.
  static const ir::Call* suppress_call(const ir::With& w);
  // Python converts `v`, the value of `test`, to bool at `site` (an if,
  // while or assert statement, a ternary, `not v`): a tensor must hold
  // exactly one element (operator.truth). No site when the test's value is
  // never a tensor (operator_rules.h: truth_test_rule).
  void check_truth(const ir::Node* site, const ir::Expr* test, const Value& v);
  // A tensor, an unknown value, or a choice that may be one of them.
  static bool may_be_tensor(const Value& v);
  // The comparison evaluated last, when none of its operands may be a tensor:
  // its value, even when undecided, is a bool.
  const ir::Expr* compared_non_tensors_ = nullptr;
  void assign(const ir::Expr* target, const Value& v, const SourceLoc& origin, const ir::Expr* value_expr = nullptr,
              const ir::Node* setitem_site = nullptr);
  void bind_name(const std::string& name, const Value& v, const SourceLoc& origin);
  void branch(const ir::Expr* test, const std::function<void()>& then_arm, const std::function<void()>& else_arm,
              const ir::Node* test_site = nullptr);

  // expressions
  Value eval(const ir::Expr* e);
  Value lookup_name(const std::string& name, const ir::Node* at);
  Binding* find_binding(const std::string& name);
  Value get_attribute(const Value& obj, const std::string& attr, const ir::Expr* obj_expr,
                      const ir::Node* site = nullptr);
  bool set_attribute(const Value& obj, const std::string& attr, const Value& v, const SourceLoc& origin);
  std::optional<std::vector<Value>> method_resolution_order(const Value& cls, int depth = 0);
  enum class Descriptor : uint8_t { None, NonData, Data };
  static Descriptor descriptor_kind(const Value& class_attr);
  Value binary(ir::BinOpKind op, const Value& a, const Value& b, const ir::Node* site, const ir::Expr* left,
               const ir::Expr* right, bool in_place);
  Value compare(ir::CmpOpKind op, const Value& a, const Value& b, const ir::Node* site, const ir::Expr* left,
                const ir::Expr* right);
  std::optional<Pred> truth(const Value& v);
  Value subscript(const Value& obj, const ir::Expr* index_expr, const ir::Subscript* site);
  // The value Python passes to __getitem__/__setitem__ for `index_expr`
  // (slices as slice objects with their bounds), evaluating it once.
  Value index_value(const ir::Expr* index_expr);
  Value size_of_unknown(const ir::Expr* receiver, int64_t axis);

  // calls
  Value eval_call(const ir::Call* c);
  std::vector<ArgValue> eval_args(const std::vector<ir::Argument>& args);
  Value call_value(const Value& callee, const ir::Expr* callee_expr, const std::vector<ArgValue>& args,
                   const ir::Node* site);
  Value call_function(const std::shared_ptr<FunctionObject>& fn, const std::vector<ArgValue>& args,
                      const std::optional<Value>& self, const ir::Node* site);
  Value call_function_body(const std::shared_ptr<FunctionObject>& fn, const std::vector<ArgValue>& args,
                           const std::optional<Value>& self, const ir::Node* site);
  // A call of a function decorated with context managers (entered_around).
  void reshaped_in_place(const BoundBuiltin& method, const Value& out, const ir::Expr* receiver, const SourceLoc& loc);
  Value call_inside_contexts(const std::shared_ptr<FunctionObject>& fn, const std::vector<ArgValue>& args,
                             const std::optional<Value>& self, const ir::Node* site);
  // A call of an lru_cache'd function: an earlier result for equal arguments,
  // joined with every result the call may return instead.
  Value call_cached(const std::shared_ptr<FunctionObject>& fn, const std::vector<ArgValue>& args,
                    const std::optional<Value>& self, const ir::Node* site);
  // The result cache a decorator gives (lru_cache, cache), or nullptr.
  std::shared_ptr<FunctionObject::ResultCache> result_cache_of(const ir::Expr* decorator);
  // `torch.jit.script(x)`, `torch.jit.trace(x, ...)`: x as TorchScript runs
  // it (a function or project module copied and marked; anything else as is).
  Value torchscript_copy(const Value& v);
  // The direct submodules of a module value with their names, in the order
  // they were set; nullopt when the analysis cannot list them (an attribute
  // or child it does not know). A library layer is taken as having none.
  std::optional<std::vector<std::pair<std::string, Value>>> submodules_of(const Value& v) const;
  // nn.Module.modules()'s order: `v` (named `prefix`), then each child's walk.
  bool walk_modules(const Value& v, const std::string& prefix, std::vector<std::pair<std::string, Value>>& out,
                    int depth) const;
  // `obj.__dict__.update(...)` / `vars(obj).update(...)` (minGPT's CfgNode,
  // AttrDict configs): the attributes it sets, or every attribute forgotten
  // when what it sets is not known. nullopt for any other call.
  std::optional<Value> update_instance_dict(const ir::Call* c);
  // Writes through `globals()` (`globals()[k] = v`, `globals().update(...)`)
  // and `exec(...)` (nanoGPT's configurator): the globals they set, or every
  // global value of the module forgotten when what they set is not known.
  std::optional<Value> write_globals(const ir::Call* c);
  bool names_globals(const ir::Expr* e);  // `globals()`
  // `id` is the builtin `builtin`: not shadowed by a local or global of that name.
  bool names_builtin(const std::string& id, const char* builtin);
  void forget_globals();
  // copy.deepcopy (`deep`) / copy.copy: a new object whose attributes start as
  // the original's (copies of them when deep); functions, classes, modules
  // and objects the analysis holds no state of are shared, as Python does.
  // `copied`: objects already copied (shared references stay shared).
  Value copy_value(const Value& v, bool deep, std::map<const ObjectValue*, Value>& copied, int depth);
  // Every attribute of `v` (an object) unknown from now on.
  void forget_object(const Value& v);
  int in_torchscript_ = 0;  // calls of compiled code on the stack
  Value instantiate(const std::shared_ptr<ClassObject>& cls, const std::vector<ArgValue>& args, const ir::Node* site);
  // Applies the rule `name` when the registry has it; nullopt when it has not.
  std::optional<Value> apply_named_rule(const std::string& name, const std::optional<Receiver>& receiver,
                                        const std::vector<ArgValue>& args, const ir::Node* site);
  // GSHAPE_DEBUG_SITE: the stack behind a site's obligations that are not proven.
  void debug_trace(const ir::Node* site, std::size_t first);
  // The rule application itself on a call site already built.
  Value apply_rule_at(const Rule& rule, const CallSite& call, const ir::Node* site);
  // Builds the call site of `name`: slots in source order, receiver first.
  // After a rule at `site` whose obligations are raw_[first...]: each
  // operand variable of unknown rank whose rank those checks fix gets that
  // rank (docs/analysis.md, "Refinement after checks").
  // After an nn module's forward accepted a name of unknown value as its
  // input, the name is a tensor (of unknown rank).
  void refine_module_input(const std::string& rule_name, const std::vector<ArgValue>& args, std::size_t first);
  void refine_pinned_ranks(const std::string& rule_name, const std::vector<const ir::Expr*>& operands, std::size_t first,
                           const ir::Node* site);
  // `x` in `x.shape` or `x.size()`, else null.
  static const ir::Name* shape_of_name(const ir::Expr* e);
  // x of unknown rank is known to have names.size() axes (unpacked into as
  // many targets, or a check fixed it): x gets that rank, its axes named
  // after the targets ("" for `_` or none: `x.size(i)`), by a rule or not.
  void fix_rank(const ir::Name& x, Binding& b, const std::vector<std::string>& names, const SourceLoc& origin,
                bool named_by_rule);
  void fix_rank_of_starred_shape(const ir::Assign* a);
  // The sizes named so far for the variable `e` is, when it is one.
  UnknownShapeMemo* unknown_shape_memo(const ir::Expr* e);
  std::optional<CallSite> make_call_site(const std::string& name, const std::optional<Receiver>& receiver,
                                         const std::vector<ArgValue>& args, const ir::Node* site);
  Value call_library(const std::string& path, const std::vector<ArgValue>& args, const ir::Node* site);
  // torchvision datasets and transforms (interp_vision.cpp); nullopt: not one of them
  std::optional<Value> call_torchvision(const std::string& path, const std::vector<ArgValue>& args, const ir::Node* site);
  Value call_method(const BoundBuiltin& method, const std::optional<Receiver>& receiver,
                    const std::vector<ArgValue>& args, const ir::Node* site, const ir::Expr* receiver_target);
  Value call_module_object(const Value& module, const ir::Expr* callee_expr, const std::vector<ArgValue>& args,
                           const ir::Node* site);
  Value library_attribute(const std::string& path);
  // nn.DataParallel and DistributedDataParallel (interp_wrappers.cpp): the
  // wrapper a constructor call makes (nullopt: `path` is no wrapper class),
  // the one a library path names (its own unique path, or an attribute of
  // it), and a call of one.
  std::optional<Value> make_module_wrapper(const std::string& path, const std::vector<ArgValue>& args,
                                           const ir::Node* site);
  std::shared_ptr<ModuleWrapper> wrapper_named(const std::string& path) const;
  Value call_module_wrapper(ModuleWrapper& wrapper, const std::vector<ArgValue>& args, const ir::Node* site);
  // A method name a tensor has (a registry rule `Tensor.NAME`, or a size query).
  bool is_tensor_method(const std::string& name) const;

  // `list[key] = v`: the list after it (interp_stmt.cpp)
  Value list_with_item_set(const Value& list, const Value& key, const Value& v);
  // ---- one of a few objects (interp_choice.cpp)
  // `apply` on each alternative that is not None, under the condition that
  // selects it; the results joined (named `path` where they differ).
  Value over_choice(const ChoiceObject& choice, const std::function<Value(const Value&)>& apply,
                    const std::string& path);
  std::optional<Pred> choice_truth(const ChoiceObject& choice);
  // When the value is None: false without a None alternative.
  std::optional<Pred> choice_is_none(const ChoiceObject& choice);

  // loops
  void exec_for(const ir::For* f);
  void exec_while(const ir::While* w);
  IterPlan plan_iteration(const Value& iterable, const std::string& hint);
  // `test_site`: the while statement whose test is converted to bool (check_truth)
  void run_loop(const ir::Expr* target, const ir::Body& body, const ir::Body& orelse, const IterPlan& plan,
                const ir::Expr* test, const ir::Node* test_site = nullptr);
  DatasetView dataset_view(const Value& dataset);
  // Whether a project dataset's samples may differ in shape from index to
  // index (a size made while reading one sample, or one not known): the
  // DataLoader's default collate stacks them, unchecked.
  bool samples_may_differ(const Value& dataset, int depth = 0);
  // The first batch of a loader (`next(iter(loader))`), and one it gives at
  // some point (`next(it)` of an iterator used before, an item of a zip of
  // loaders): any batch may be the last, partial one.
  Value first_batch(const Value& loader);
  Value any_batch(const Value& loader);
  Value comprehension(const ir::ComprehensionExpr* c, bool is_set);
  Value dict_comprehension(const ir::DictComp* d);
  // Runs `produce` once per combination of the generators' items (their
  // targets bound, conditions applied); false when the items or conditions
  // are not all known (then `produce` ran on representative items).
  // `lazy`: a generator expression, whose consumer may stop early (`any`):
  // how many times its body ran is not known.
  bool generate_each(const std::vector<ir::Comprehension>& generators, const std::function<void()>& produce,
                     bool lazy = false);
  // The items of an iterable when they are known and few (unrolling).
  std::optional<std::vector<Value>> known_items(const Value& v, std::size_t limit);
  // One abstract element of an iterable of unknown or large length.
  Value any_element(const Value& v, const std::string& name_hint);

  // values
  Value fresh_int(const std::string& name, bool nonneg = true) { return Value::integer(Dim::symbol(name, nonneg)); }
  // One item drawn from a sequence whose items are not known one by one
  // (`l[0]`, `a, b = l` of an unknown length, `l[i]`): `element` stands for
  // every item, so two items drawn from it must not share its sizes (the
  // items of `[zeros(i) for i in range(n)]` differ). Each size that is not
  // a constant is a fresh symbol; rank, constants and kinds are kept.
  Value some_item(const Value& element);
  // `result` derived from `from` (an operator's, attribute's or item's
  // operand): when its shape is unknown and it has no cause, `from`'s.
  static Value inherit_cause(Value result, const Value& from, const Value* also = nullptr);
  // `v` with `cause`, and each item of a tuple whose shape is unknown with it too.
  static Value attach_cause(Value v, const std::shared_ptr<const UnknownCause>& cause, int depth = 0);
  void record_shape(const ir::Expr* e, const Value& v);
  std::string source_text(const SourceLoc& loc, std::size_t max_len = 60) const;
  // `e` as written when it is a name or an attribute chain (Operand::text).
  std::string operand_text(const ir::Expr* e) const;
  // ---- a launch's command line (interp_argparse.cpp): the Namespace
  // `parser.parse_args()` gives for AnalysisOptions::launch_args; each int
  // is a symbol held to its value by a fact naming the argument.
  Value parse_command_line(ArgParserObject& parser, const ir::Node* site, bool known_only);
  // json.load of a file a launch names (or json.loads of a constant): its
  // values, each top-level int a symbol held by a fact naming its key;
  // nullopt when the file cannot be read (the value is then unknown).
  std::optional<Value> read_launch_json(const Value& source, bool is_text, const ir::Node* site);
  // --args=symbolic: every int argument a symbol named after its dest; with
  // AnalysisOptions::symbolic_command, that sub-command's too (it runs).
  Value symbolic_arguments(ArgParserObject& parser, const ir::Node* site);
  void symbolize_arguments(const ArgParserObject& parser, ObjectValue& ns, const std::string& command);
  // parser.add_argument / set_defaults / add_subparsers / parse_args ... and
  // add_parser on a sub-parsers action (interp_argparse.cpp).
  Value argparse_method(const std::shared_ptr<ArgParserObject>& parser, const std::string& m,
                        const std::vector<ArgValue>& args, const ir::Node* site);
  // One parser's share of a command line (sub-parsers recurse): a launch's
  // (ints named after their options) or the program's own parse_args(words).
  void parse_words(ArgParserObject& parser, const std::vector<std::string>& words, ObjectValue& ns,
                   std::vector<std::string>& extras, const ir::Node* site, bool& failed, bool launch = true);
  // Whether a launch's command line reaches the code analysed now: the
  // module run at the bottom of the stack is the launched script (other
  // scripts of a project `gshape run` analyses keep their defaults).
  bool launch_applies_here() const;
  // Some module of the project edits sys.argv (read from its text): argparse
  // then reads neither the launch's words nor an empty command line.
  bool project_changes_argv();
  std::optional<bool> changes_argv_;
  // Some module of the unit contains `word` (and passes `also`, if given).
  bool project_text_matches(const std::string& word,
                            const std::function<bool(const std::string&)>& also = nullptr) const;
  // Some module names the channels-last memory format: 4-d results may not
  // be contiguous (channels_last_layout).
  std::optional<bool> uses_channels_last_;
  // Some module of the unit writes files (its text): a launch's config files
  // are not read at analysis time then (the program may rewrite one first).
  bool project_writes_files();
  std::optional<bool> writes_files_;
  std::optional<bool> clears_caches_;  // some module calls cache_clear() (an lru_cache may be emptied)
  // yaml.safe_load / yaml.load of a file a launch names (yaml_config.cpp reads it).
  std::optional<Value> read_launch_yaml(const Value& source, const ir::Node* site);
  void hold_config_ints(Value& v, const std::string& name, const std::string& prefix, const ir::Node* site, int depth);
  // ---- shape annotations (interp_annotations.cpp)
  const FunctionAnnotations* annotations_of(const ir::FunctionDef* def);
  // The entry check of an annotated call: obligations at the call site (none
  // for a visit without a caller), and the parameters' values inside.
  // `origins`: where each parameter's value came from (for notes).
  void check_entry(const FunctionAnnotations& fa, std::vector<Value>& values, const std::vector<SourceLoc>& origins,
                   const ir::Node* site, const SourceLoc& def_loc);
  // A `return` or annotated assignment: the value checked against `rule`'s
  // pattern (slot 0) with the parameters at entry; the value after it.
  Value check_annotated_value(const std::string& rule, const Value& v, const ir::Expr* value_expr, const ir::Node* site);
  void add_fact(const Pred& p, const SourceLoc& loc, const std::string& description);
  void tick();  // one unit of work; throws BudgetExceeded past the frame's budget

  Frame& frame() { return *frames_.back(); }
  ModuleState* module_state(const std::string& dotted);
  void ensure_module(ModuleState* m);

  // ---- attribute write log (undone and joined around branches)
  struct AttrWrite {
    std::shared_ptr<ObjectValue> object;
    std::string name;
    std::optional<Value> old_value;
  };
  void write_object_attribute(const std::shared_ptr<ObjectValue>& obj, const std::string& name, const Value& v);
  // A library convolution whose weight was replaced takes its sizes from it.
  void replace_conv_sizes(const std::shared_ptr<ObjectValue>& module, const Value& weight);
  // Where a branch or loop pass starts: the write log's length and the object clock.
  struct WriteMark {
    std::size_t log;
    uint64_t clock;
  };
  WriteMark write_mark() const { return {write_log_.size(), object_clock_}; }
  // Undoes the writes since `mark` to objects that existed then (an object
  // made since keeps its attributes: a container may hold it).
  void undo_writes(const WriteMark& mark);
  int log_depth = 0;  // > 0: attribute writes are logged (inside a branch arm or a silent pass)

  // ---- call-site visits: rule applications during one visit of a site share an evaluation id
  class SiteVisit {
   public:
    SiteVisit(Interpreter& in, const ir::Node* site);
    ~SiteVisit();
    SiteVisit(const SiteVisit&) = delete;
    SiteVisit& operator=(const SiteVisit&) = delete;

   private:
    Interpreter& in_;
    const ir::Node* site_;
    std::optional<int> previous_;
  };
  int visit_of(const ir::Node* site);
  void adapt_solver_limit();

  // ---- what each call and operator turned out to be, over all its visits
  // (the rewriter leaves out the run-time check of a site only when every
  // visit applied rules whose obligations all held, or called something that
  // has no rule, such as a project function).
  class SiteOutcome {
   public:
    SiteOutcome(Interpreter& in, const ir::Node* site);
    ~SiteOutcome();
    SiteOutcome(const SiteOutcome&) = delete;
    SiteOutcome& operator=(const SiteOutcome&) = delete;

   private:
    Interpreter& in_;
    int exceptions_;
  };
  // The callee or an operand was not known well enough to tell whether a
  // rule applies (`what` names it for the review).
  // `inherited`: the callee is unknown because of that cause (an unknown
  // receiver's), which the result then carries instead of a cause of its own.
  void note_unresolved(const ir::Node* site, const std::string& what,
                       std::shared_ptr<const UnknownCause> inherited = nullptr);
  // A rule exists for the call but could not be applied (an argument list the
  // analysis cannot spell out).
  void note_unmodelled(const ir::Node* site, const std::string& rule);
  // A call of something with no rule (coverage): `torch.fft.fft`, `Tensor.unfold`.
  // Returns the cause the call's unknown result carries.
  std::shared_ptr<const UnknownCause> note_no_rule(const ir::Node* site, const std::string& name);
  // Project functions and instances handed to code the analysis does not
  // follow: it may call them with anything, so they are analysed again with
  // unknown arguments.
  void note_escapes(const std::vector<ArgValue>& args);
  // The variables a `def`, lambda or class body made here sees (interp_stmt.cpp):
  // for a function or lambda, which runs later, those the enclosing function
  // binds again are unknown.
  std::shared_ptr<const Vars> closure_snapshot(bool runs_later);
  // Names the defs nested in `def` declare `nonlocal` (cached).
  const std::set<std::string>& shared_with_inner_functions(const ir::FunctionDef* def);
  std::map<const ir::FunctionDef*, std::set<std::string>> nonlocal_names_;
  // Attribute writes from its construction to join_into_objects(), after
  // which each attribute written holds the join of every value it had in
  // between (a body that may stop after any statement: a try body with
  // handlers, a suppressing with).
  class WrittenBetween {
   public:
    explicit WrittenBetween(Interpreter& in);
    ~WrittenBetween();
    WrittenBetween(const WrittenBetween&) = delete;
    WrittenBetween& operator=(const WrittenBetween&) = delete;
    void join_into_objects();

   private:
    Interpreter& in_;
    WriteMark mark_;
    bool done_ = false;
  };
  void exec_generator_body(const ir::FunctionDef& def);
  void run_at_unknown_time(const std::function<void()>& body);
  std::optional<Value> enter_context(const Value& cm, const ir::Node* site);
  bool unbuilt_library_module(const InstanceObject& inst) const;
  static bool returns_only_falsy(const FunctionObject& fn);
  const std::set<std::string>& rebound_names(const ir::FunctionDef* def);
  std::map<const ir::FunctionDef*, std::set<std::string>> rebound_names_;
  // Names the `nonlocal` statements of an inner function's body declare (interp_stmt.cpp).
  void note_nonlocal_names(const ir::Body& body, int depth);
  // ---- in-place changes of lists and tensors (interp_mutation.cpp)
  // `target` (may be null) held `before` and now holds `after`; every other
  // name that may hold the same object loses what it knew.
  void assign_in_place(const ir::Expr* target, const Value& before, const Value& after, const SourceLoc& loc);
  // What a list or tensor is after a change the analysis did not see.
  Value after_unseen_change(const Value& v);
  void note_parameter_changed(const std::string& name);
  void note_parameter_changed(Frame& f, const std::string& name);
  // Lists handed to code the analysis does not follow (a callee not known,
  // library code other than torch, builtins ...) may come back changed.
  void forget_lists_passed(const std::vector<ArgValue>& args, const std::string& library_path = {});
  // The caller's side of a call whose callee changed parameters in place.
  void apply_parameter_changes(FunctionObject& fn, const std::set<std::size_t>& changed,
                               const std::vector<const ir::Expr*>& arg_exprs, const std::vector<Value>& values,
                               const std::vector<bool>& filled);
  void note_escape(const Value& v, int depth = 0);
  void mark_incomplete(const ir::FunctionDef* def) {
    if (def && recording_) incomplete_defs_.insert(def);
  }
  struct OpenSite {
    const ir::Node* site = nullptr;
    bool unresolved = false;
    bool unmodelled = false;
    bool not_proven = false;
    bool unknown_rank = false;
    std::vector<std::string> rules;
    std::vector<std::string> no_rule;
    std::string what;
    bool unknown_operand = false;
    bool through_partial = false;  // the callee is a functools.partial of a library function
    bool not_analysed = false;     // a statement the analysis does not follow
    bool hooked = false;           // calls a module with forward hooks (a check cannot see what they pass on)
  };
  OpenSite* open_site(const ir::Node* site);
  const std::map<const ir::Node*, SiteSummary>& site_summaries() const { return site_summaries_; }

  // ---- silent passes (loop fixed points): obligations and memo entries are dropped
  struct Checkpoint {
    std::size_t raw = 0;
    std::size_t memo_log = 0;
    std::size_t writes = 0;
    bool recording = true;
  };
  Checkpoint checkpoint() const;
  void rollback(const Checkpoint& cp);
  int push_context(Context c);

 private:
  friend class FrameGuard;
  void run_module(ModuleState& m);
  void analyse_uncalled();
  void collect_defs(const ir::Body& body, ModuleState* m, const ir::ClassDef* cls,
                    std::vector<std::tuple<const ir::FunctionDef*, ModuleState*, const ir::ClassDef*>>& out);
  std::string memo_key(const FunctionObject& fn, const std::vector<Value>& args) const;
  void attach_notes(const CallSite& call, std::size_t first_raw, const ir::Node* site);
  // nn.Sequential: the note of an error refuted in layer k (interp_call.cpp).
  std::string sequential_layer_text(const ContainerModule& seq, const std::string& name, std::size_t k) const;
  void note_sequential_layer(const ContainerModule& seq, const std::string& name, std::size_t k,
                             std::optional<std::size_t> input_from, const Value& input, std::size_t first_raw);
  // help: lines for the refuted obligations from first_raw on (interp_help.cpp).
  void attach_help(const Rule& rule, const CallSite& call, std::size_t first_raw);
  // The rule applied to `call` in a solver scope of its own proves every obligation.
  bool passes_with(const Rule& rule, const CallSite& call);
  // Remembers a reduction call that dropped one axis (keepdim=False): the keepdim help.
  void note_reduction(const Rule& rule, const CallSite& call, const Value& result, const ir::Node* site);
  // loss_broadcast_c2: an element-wise op of an [N, 1] and an [N] tensor
  // (result [N, N], larger than both) whose result feeds a full mean/sum or
  // a loss, directly or through ops of it alone that keep its shape (interp_help.cpp).
  void note_outer_broadcast(const Rule& rule, const CallSite& call, const Value& result, const ir::Node* site);
  // Deferred obligations of `call` (raw_[first...]) whose operand is unknown
  // because of an earlier error or unknown get a reason naming it, and the
  // site's result is traced to it in turn (interp_sites.cpp).
  // Returns the cause the result carries (null: none).
  std::shared_ptr<const UnknownCause> trace_unknown_causes(const CallSite& call, std::size_t first_raw,
                                                           const ir::Node* site, bool refuted, const Value& result);
  // The unknown result of `site` comes from `site` itself (a call without a
  // rule, a callee not resolved, data read when the program runs).
  std::shared_ptr<const UnknownCause> note_unknown_cause(const ir::Node* site, const std::string& why,
                                                         const std::string& alone, UnknownCause::Kind kind);
  // The unknown result of `site` comes from an operand's cause, if it has one.
  void carry_unknown_cause(const ir::Node* site);
  std::shared_ptr<const UnknownCause> unknown_cause_at(const SourceLoc& origin) const;
  // A value read when the program runs (a file, a dataset's items, input()):
  // unknown, with a cause that says so.
  Value run_time_data(const ir::Node* site, const std::string& what, Value v = Value::unknown());

 public:
  std::vector<std::unique_ptr<Frame>> frames_;

 private:
  const Project& project_;
  AnalysisOptions options_;
  const RuleRegistry& registry_;
  // One incremental solver for the run (a Z3 context costs tens of
  // milliseconds to create); each module and each function analysed alone
  // runs in its own scope, so facts never pile up across them.
  std::unique_ptr<Solver> solver_;
  uint64_t solver_rlimit_ = 0;  // the solver's current per-query resource limit
  std::vector<Obligation> raw_;
  // Whether an obligation being discharged needs its proof (the solver's
  // proof filter): not when an earlier analysis of its site deferred the
  // same check outright (raw obligations by merge group, in indexed_deferred),
  // since the site's merged outcome and the one printed are then that
  // earlier one's. Only for the rules of apply_rule_at (proofs_optional_).
  bool proof_wanted(const Obligation& ob);
  void index_deferred(std::size_t first);
  std::unordered_map<uint64_t, std::vector<std::size_t>> deferred_by_key_;
  bool proofs_optional_ = false;
  std::vector<RawInfo> raw_info_;
  std::vector<Context> contexts_;
  int context_ = 0;
  std::map<const ir::Expr*, std::vector<std::string>> shapes_;
  std::vector<Diagnostic> internal_;
  std::vector<Diagnostic> advice_;  // rules' advice (RuleContext::advise) as warnings, one per site and tag
  std::vector<Diagnostic> launch_errors_;  // command lines argparse would reject
  std::vector<std::pair<Dim, int64_t>> launch_values_;  // a launch's int arguments: symbol, value
  std::vector<AnalysisResult::ArgumentSymbol> argument_symbols_;  // --args=symbolic
  std::vector<std::string> launch_inputs_;  // config files a launch opened for reading
  std::vector<std::string> symbolic_commands_;
  std::vector<std::string> symbolic_inputs_;  // --args=symbolic: config files read (default paths)
  std::unordered_map<const ir::FunctionDef*, std::optional<FunctionAnnotations>> annotations_;
  std::map<const ir::FunctionDef*, std::vector<CallSample>> call_samples_;
  AnalysisStats stats_;
  bool recording_ = true;

  std::vector<std::unique_ptr<ModuleState>> modules_;
  std::map<std::string, ModuleState*> modules_by_name_;
  CallGraph call_graph_;

  // memoised calls: key → result; the log lists keys in insertion order (rollback)
  // Module globals a call read, with the value read first (a memo hit needs
  // them unchanged) and, for an instance (a config, a model), its version
  // then: a memo hit needs its attributes unchanged too (`cfg.d_in = 6`
  // between two calls of `build()` reading cfg.d_in).
  struct GlobalRead {
    Value value;
    uint64_t version = 0;
  };
  using GlobalReads = std::map<std::pair<const ModuleState*, std::string>, GlobalRead>;
  struct MemoEntry {
    Value result;
    // The callee and the arguments, kept alive: a key names the callee and
    // argument objects by address, so no other object (a lambda made later,
    // another instance) may reuse one of those addresses while the entry
    // exists; otherwise a call of another lambda could hit this entry, and
    // whether it did would depend on the allocator.
    std::shared_ptr<const FunctionObject> fn;
    std::vector<Value> args;
    std::vector<const TermNode*> facts;  // Solver::scoped_facts() when the call was analysed
    bool recorded;                       // analysed while recording (else a loop's silent pass)
    // The symbols the analysis of the call made (ids in [first, end)): a
    // later call that hits the entry gets fresh ones in their place, since
    // the sizes it stands for may differ from the first call's (two loads
    // unpacked by one helper, `batch, n, d = img.shape`).
    std::size_t first_symbol = 0, end_symbol = 0;
    std::set<std::size_t> changed_parameters;  // Frame::changed_parameters of the call
    GlobalReads global_reads;                  // what the call read of module globals
  };
  Value with_fresh_symbols(const Value& v, std::size_t first, std::size_t end,
                           std::unordered_map<const TermNode*, Dim>& renamed, int depth = 0);
  std::unordered_map<std::string, MemoEntry> memo_;
  // Library names the project assigned (`F.pad = my_pad`): path -> value
  std::map<std::string, Value> library_overrides_;
  // A process-wide module hook was registered (register_module_forward_hook):
  // no module call after it is followed
  bool global_module_hooks_ = false;
  bool receiver_is_guess_ = false;
  bool in_uncalled_pass_ = false;   // analysing functions nobody called (Dyn parameters)
  std::string uncalled_root_;       // the one being analysed then ("test", "Net.check")
  SourceLoc uncalled_root_loc_;
  int fixpoint_loops_ = 0;           // enclosing loops iterated to a fixed point (not unrolled)
  uint64_t object_clock_ = 0;        // instances made so far (InstanceObject::born)
  uint64_t attribute_clock_ = 0;     // attribute first writes so far (InstanceObject::first_set)
  std::size_t unroll_product_ = 1;   // iterations of the enclosing unrolled loops together
  std::vector<std::string> memo_log_;
  std::unordered_set<const ir::FunctionDef*> analysed_defs_;
  std::vector<int> active_sccs_;         // call-graph components on the call stack
  std::vector<const ir::FunctionDef*> active_defs_;  // their functions (nullptr: a lambda)
  std::vector<std::string> active_keys_;  // and the memo keys of those calls
  // The module globals each active call read, with the value read first: a
  // memo hit stands only while they hold the same values (`D = 5` between
  // two calls of `make()` reading D).
  std::vector<GlobalReads> active_global_reads_;
  static constexpr int kMaxRecursionDepth = 6;  // calls of one recursive component on the stack
  std::unordered_map<const ir::Node*, int> active_visit_;
  int visit_counter_ = 0;
  std::vector<const ir::Expr*> slot_exprs_;  // the last call site's operand expressions, by slot
  std::map<const ClassObject*, Value> dyn_instances_;
  // `config.n_embd` read off a hinted unknown (a generic parameter): the same
  // symbol on every read, until the object is written or escapes.
  std::map<std::pair<const TermNode*, std::string>, Dim> attribute_hints_;
  // The module wrappers made so far, by their unique library path.
  std::map<std::string, std::shared_ptr<ModuleWrapper>> wrappers_;
  void forget_attribute_hints(const Value& obj);
  // isinstance(v, classes) when the value's kind decides it.
  std::optional<bool> isinstance_of(const Value& v, const Value& classes);
  std::unordered_map<const ObjectValue*, SourceLoc> created_at_;
  // The `try:` bodies being executed whose handlers catch a RuntimeError,
  // innermost last, with the frame they belong to (an op is handled when it
  // is written in the body itself, not in a function the body calls).
  struct Handler {
    SourceLoc loc;
    std::string what;  // how the clause reads: "except (IndexError, ValueError)", "a bare except"
    std::size_t frame_depth = 0;
    std::vector<std::string> classes;  // the builtin classes it catches (python_errors.h)
    const ir::Stmt* try_body = nullptr;
  };
  // The `n` handlers a try (or a `with suppress(...)`) pushed, popped when its body ends.
  struct HandlerScope {
    std::vector<Handler>& handlers;
    std::size_t n;
    ~HandlerScope() { handlers.resize(handlers.size() - n); }
  };
  // The innermost handler, of the current function or of a caller (the
  // failure propagates), that catches what a failure of constraint `tag`
  // raises; null when none does.
  const Handler* handler_for(const std::string& tag) const;
  std::vector<Handler> handlers_;
  // The except clauses whose bodies are being analysed, with their frame depth.
  std::vector<std::pair<SourceLoc, std::size_t>> handler_bodies_;
  // reduction calls that dropped one axis: (file, begin) → (the axis, the call)
  std::map<std::pair<const SourceFile*, uint32_t>, std::pair<int64_t, SourceLoc>> reductions_;
  // expressions holding the [N, N] result of an element-wise op of [N, 1] and
  // [N] (the op, or an op of that result alone keeping its shape): (file,
  // begin) → the op and its shapes
  struct OuterBroadcast {
    SourceLoc op;
    std::string text;    // "`pred - y`: [8, 1] and [8] broadcast to [8, 8]"
    std::string result;  // the broadcast shape, "[8, 8]"
    std::string help;
  };
  std::map<std::pair<const SourceFile*, uint32_t>, std::shared_ptr<const OuterBroadcast>> outer_broadcasts_;
  // expressions whose value is unknown because of an earlier error or unknown:
  // (file, begin, end) → where it comes from: the error at 9:14, a call
  // that has no rule or whose callee is not known
  using ExprKey = std::tuple<const SourceFile*, uint32_t, uint32_t>;
  std::map<ExprKey, std::shared_ptr<const UnknownCause>> unknown_causes_;
  std::vector<AttrWrite> write_log_;
  std::vector<OpenSite> open_sites_;
  std::map<const ir::Node*, SiteSummary> site_summaries_;
  std::unordered_set<const ir::FunctionDef*> incomplete_defs_;  // cut short or escaped: analyse with Dyn arguments too
  std::unordered_set<const ir::FunctionDef*> generic_done_;     // analysed with Dyn arguments already
  int depth_ = 0;  // expression recursion depth

 public:
  uint64_t steps_ = 0;
  int call_depth_ = 0;
  void note_created(const ObjectValue* obj, const SourceLoc& loc) { created_at_[obj] = loc; }
  const SourceLoc* created_at(const ObjectValue* obj) const {
    auto it = created_at_.find(obj);
    return it == created_at_.end() ? nullptr : &it->second;
  }
  int& expr_depth() { return depth_; }
  std::set<std::string> warned_once_;
};

// Pushes a frame for the life of the guard.
class FrameGuard {
 public:
  FrameGuard(Interpreter& in, std::unique_ptr<Frame> f) : in_(in) { in_.frames_.push_back(std::move(f)); }
  ~FrameGuard() { in_.frames_.pop_back(); }
  FrameGuard(const FrameGuard&) = delete;
  FrameGuard& operator=(const FrameGuard&) = delete;

 private:
  Interpreter& in_;
};

// A solver scope for the life of the guard (branches, loop passes).
class SolverScope {
 public:
  explicit SolverScope(Solver& s) : s_(s) { s_.push_scope(); }
  ~SolverScope() { s_.pop_scope(); }
  SolverScope(const SolverScope&) = delete;
  SolverScope& operator=(const SolverScope&) = delete;

 private:
  Solver& s_;
};


}  // namespace gshape::gradual::interp
