// The interpreter's own kinds of Python objects, carried in a Value as
// ObjectValue subclasses: project functions, classes and their instances,
// bound methods, project modules, library names (`torch.nn.functional`),
// nn.Sequential / nn.ModuleList, argparse parsers, DataLoaders, datasets and
// dicts with constant keys. Rule-made objects (an nn.Linear) stay plain
// ObjectValues; everything here is internal to the analysis.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/ir.h"
#include "frontend/source.h"
#include "gradual/call.h"
#include "gradual/value.h"

namespace gshape::gradual::interp {

struct ModuleState;
struct ClassObject;

// A variable: its value and where it was last assigned (for notes).
// The attribute marking a module with forward hooks (register_forward_hook,
// register_forward_pre_hook): a hook may change its input or output, so
// calls of it are not followed.
inline constexpr const char* kForwardHooksAttr = "__gshape_forward_hooks__";

struct Binding {
  Value value;
  SourceLoc origin;
  // Sizes read from a tensor of unknown rank (`x.size(0)`, a rule's
  // `x.dim()`): the same symbol each time, so relations survive
  // (`b = x.size(0); x.view(b, -1)`).
  UnknownShapeMemo unknown_sizes;
};
using Vars = std::map<std::string, Binding>;

// A `def` or `lambda` of the project, closed over its module and (read-only)
// the enclosing function's variables at definition time.
struct FunctionObject : ObjectValue {
  enum class Flavor : uint8_t { Plain, Static, Class, Property };
  FunctionObject() : ObjectValue("builtins.function") {}
  const ir::FunctionDef* def = nullptr;
  const ir::Lambda* lambda = nullptr;
  ModuleState* module = nullptr;
  std::shared_ptr<const Vars> closure;
  std::vector<Value> defaults;  // per parameter; Unknown when it has none
  std::vector<bool> has_default;
  std::string qualname;
  ClassObject* owner = nullptr;  // the class whose body defined it (for super())
  Flavor flavor = Flavor::Plain;
  std::shared_ptr<FunctionObject> setter;  // a property's `@name.setter`
  // Compiled by TorchScript (`@torch.jit.script`, `torch.jit.script(f)`):
  // its body runs without Python, so run-time checks do not run inside it.
  bool torchscript = false;
  // `@functools.lru_cache` / `@functools.cache`: a call with arguments equal
  // to an earlier call's returns that call's result, the body is not run.
  struct ResultCache {
    std::optional<int64_t> maxsize;  // nullopt: unbounded
    // earlier results by their arguments' key; "" for arguments the
    // analysis cannot compare (they may equal any later call's)
    std::vector<std::pair<std::string, Value>> entries;
  };
  std::shared_ptr<ResultCache> result_cache;
  // functools.cached_property: the first read stores its value on the
  // instance, where later reads find it (until it is deleted or set)
  bool stores_on_instance = false;
  // Context managers used as its decorators (`@Override(cfg, 6)` of a
  // contextlib.ContextDecorator subclass), innermost first: each call runs
  // their __enter__ before the body and their __exit__ after it.
  std::vector<Value> entered_around;
  std::shared_ptr<FunctionObject> undecorated;  // what they wrap (set with entered_around)
  const std::vector<ir::Parameter>& params() const;
};

// A project class. Its namespace is `attributes` (methods, class variables).
struct ClassObject : ObjectValue {
  ClassObject() : ObjectValue("builtins.type") {}
  std::string qualname;  // "model.Net"
  const ir::ClassDef* def = nullptr;
  ModuleState* module = nullptr;
  std::vector<Value> bases;
  bool is_nn_module = false;
  std::string library_base;  // the first library class among the bases ("torch.nn.Module")
  bool is_dataclass = false;
  // Its metaclass (a project class) defines __call__: what calling the
  // class gives is not known (interp_call.cpp's instantiate).
  bool custom_call = false;
  struct Field {
    std::string name;
    std::optional<Value> default_value;
  };
  std::vector<Field> fields;  // dataclass fields in order
  // Class attribute by the method resolution order (depth first, left to right).
  const Value* lookup(const std::string& name) const;
};

// An instance of a project class (an nn.Module subclass, a config object).
struct InstanceObject : ObjectValue {
  explicit InstanceObject(std::shared_ptr<ClassObject> c) : ObjectValue(c->qualname), cls(std::move(c)) {}
  std::shared_ptr<ClassObject> cls;
  std::map<std::string, SourceLoc> origins;  // where each attribute was set
  uint64_t version = 0;                      // bumped on every attribute write (memo keys)
  uint64_t born = 0;                         // the interpreter's object clock at creation
  std::map<std::string, uint64_t> first_set;  // when each attribute was first set (registration order)
  // `torch.jit.script(model)` / `torch.jit.trace(model, x)`: its methods
  // (and what they call) run compiled, without Python.
  bool torchscript = false;
};

// `obj.method` of a project class: the function with its first argument.
struct BoundMethod : ObjectValue {
  BoundMethod() : ObjectValue("builtins.method") {}
  Value self;
  std::shared_ptr<FunctionObject> function;
};

// functools.partial(func, *args, **keywords): a call of it calls func with
// these arguments first (and these keywords unless the call gives them).
struct PartialObject : ObjectValue {
  PartialObject() : ObjectValue("functools.partial") {}
  Value func;
  std::vector<Value> args;
  std::vector<std::pair<std::string, Value>> keywords;
};

// `super()` inside a method: attribute lookup starts after `cls`.
struct SuperObject : ObjectValue {
  SuperObject() : ObjectValue("builtins.super") {}
  ClassObject* cls = nullptr;
  Value self;
};

// An nn.Module of the project or the library, a container of them, or a
// ModuleDict (interp_library.cpp).
bool is_module_value(const Value& v);

// A method or field every nn.Module has (`parameters`, `to`, `training`,
// dunders ...), as opposed to what a library subclass's constructor made
// (`encoder` of nn.Transformer) or that subclass's own methods.
bool nn_module_method(const std::string& attr);

// List methods that leave their list as it was (`copy`, `count`, `index` ...).
bool list_method_reads_only(const std::string& method);
// Tensor methods that change their receiver's shape in place (`t_`,
// `unsqueeze_` ...; "Tensor.t_" names one too) (interp_call.cpp).
bool reshapes_in_place(const std::string& method);

// A name in a library the project imports: a module, function or class
// (`torch`, `torch.nn.functional.relu`, `torch.nn.Linear`), canonical form.
struct LibraryName : ObjectValue {
  explicit LibraryName(std::string p) : ObjectValue("library"), path(std::move(p)) {}
  std::string path;
};

// A method of a value that is not a project object (`x.view`, `layers.append`,
// `parser.add_argument`): the receiver and the qualified method name
// ("Tensor.view", "list.append", "torch.nn.Linear.forward").
struct BoundBuiltin : ObjectValue {
  BoundBuiltin(Value r, std::string n) : ObjectValue("builtins.method"), receiver(std::move(r)), name(std::move(n)) {}
  Value receiver;
  std::string name;
};

// A project module as a value (`import pkg.mod as m`).
struct ModuleNamespace : ObjectValue {
  explicit ModuleNamespace(ModuleState* m) : ObjectValue("builtins.module"), module(m) {}
  ModuleState* module;
};

// nn.Sequential and nn.ModuleList: their child modules in order.
struct ContainerModule : ObjectValue {
  explicit ContainerModule(std::string cls) : ObjectValue(std::move(cls)) {}
  std::vector<Value> children;
  // nn.Sequential: the expression each child was written as in the call
  // (nullptr for one from a *list), for notes and the shapes between layers.
  std::vector<const ir::Expr*> child_exprs;
  bool children_known = true;  // false: built from something the analysis cannot list
  // Loops iterated to a fixed point (unknown trip count) around its creation:
  // an append inside a further such loop adds an unknown number of children.
  int fixpoint_loops = 0;
  bool is_sequential() const { return class_name == "torch.nn.Sequential"; }
};

// argparse.ArgumentParser: each option's destination and default value.
struct ArgParserObject : ObjectValue {
  ArgParserObject() : ObjectValue("argparse.ArgumentParser") {}
  std::vector<std::pair<std::string, Value>> defaults;
  // fromfile_prefix_chars= ("@": `@args.txt` reads words from the file);
  // `unknown_prefix`: given, but not a known string
  std::string fromfile_prefix_chars;
  bool unknown_prefix = false;
  // What each add_argument declared, for parsing a launch's command line
  // (interp_argparse.cpp).
  struct Argument {
    std::vector<std::string> flags;  // "--heads", "-n"; empty: a positional
    std::string dest;
    std::string type;    // "int", "float", "str" or "" (strings, no conversion)
    std::string action;  // "store", "store_true", "store_false", "store_const", "count", "append"
    std::string nargs;   // "", "?", "*", "+" or a count
    Value constant;      // const=
    std::vector<Value> choices;
    bool choices_known = true;
    SourceLoc loc;       // the add_argument call
    bool required = false;  // required=True (positionals: by their nargs)
    // action "parsers": add_subparsers(), a positional whose value names the
    // sub-parser that parses the rest of the command line
    std::shared_ptr<ArgParserObject> subparsers;
  };
  std::vector<Argument> arguments;
  // On the object add_subparsers() returns (class argparse._SubParsersAction):
  // each add_parser(name, aliases=...) and the parser it made.
  std::vector<std::pair<std::vector<std::string>, std::shared_ptr<ArgParserObject>>> commands;
  // add_mutually_exclusive_group(required=...): the dests of its arguments.
  struct ExclusiveGroup {
    std::vector<std::string> dests;
    bool required = false;
  };
  std::vector<ExclusiveGroup> exclusive_groups;
  // On the object add_mutually_exclusive_group() returns (class
  // argparse._MutuallyExclusiveGroup): the parser its add_argument adds to,
  // and its group there.
  std::shared_ptr<ArgParserObject> owner;
  std::size_t group_index = 0;
};

// ArgumentParser(parents=[...]) and add_parser(..., parents=[...]): the
// parents' arguments, defaults and mutually exclusive groups, copied.
void inherit_arguments(ArgParserObject& parser, const Value& parents);

// A dataset whose samples the analysis knows: torch.utils.data.TensorDataset
// of known tensors, or a torchvision dataset (interp_vision.cpp) whose
// sample is fixed by the dataset and its transform.
struct DatasetObject : ObjectValue {
  explicit DatasetObject(std::string cls = "torch.utils.data.TensorDataset") : ObjectValue(std::move(cls)) {}
  std::vector<Value> tensors;         // TensorDataset
  std::optional<Value> item;          // a library dataset: what dataset[i] gives
  std::optional<Dim> size;            // a library dataset: its length, when known
  bool is_tensor_dataset() const { return !item; }
  Value sample() const;               // dataset[i]
  std::optional<Dim> length() const;  // TensorDataset: dim 0 of the first tensor, when known
};

// One step of a torchvision transform pipeline, as it changes an image's
// channels, height and width (interp_vision.cpp).
struct TransformStep {
  enum class Op : uint8_t {
    Keep,        // flips, colour jitter, blur...: the same size, PIL image or tensor
    TensorKeep,  // Normalize, RandomErasing, ConvertImageDtype: a tensor only, the same size
    ToTensor,    // a PIL image becomes a [C, H, W] tensor
    ToPIL,       // a [C, H, W] tensor becomes a PIL image
    SetSize,     // crops and Resize((h, w)): the height and width become a, b
    ShortSide,   // Resize(s): the shorter side becomes a, the other keeps the aspect
    Pad,         // Pad: height + a + b, width + c + d
    SetChannels, // Grayscale(n): a channels
    Call,        // Lambda(f), a project callable: fn is called on the image
    Unknown,     // an unknown transform: nothing is known after it
  };
  Op op = Op::Unknown;
  Dim a{0}, b{0}, c{0}, d{0};
  Value fn;  // Call
};

// A torchvision transform or a Compose of them: the steps in order.
struct TransformObject : ObjectValue {
  explicit TransformObject(std::string cls) : ObjectValue(std::move(cls)) {}
  std::vector<TransformStep> steps;
};

// torch.utils.data.DataLoader(dataset, batch_size, drop_last).
struct DataLoaderObject : ObjectValue {
  DataLoaderObject() : ObjectValue("torch.utils.data.DataLoader") {}
  Value dataset;
  Value batch_size;            // Int (default 1) or Unknown
  std::optional<bool> drop_last;  // nullopt: not a constant
  SourceLoc loc;               // where it was built (notes)
};

// `iter(loader)`: next() gives its first batch.
struct LoaderIterator : ObjectValue {
  explicit LoaderIterator(Value l) : ObjectValue("builtins.iterator"), loader(std::move(l)) {}
  Value loader;
};

// enumerate(x) / zip(a, b, ...) over iterables that are not known sequences.
struct EnumerateObject : ObjectValue {
  explicit EnumerateObject(Value i) : ObjectValue("builtins.enumerate"), inner(std::move(i)) {}
  Value inner;
  Dim start = 0;
};
struct ZipObject : ObjectValue {
  ZipObject() : ObjectValue("builtins.zip") {}
  std::vector<Value> inners;
};

// A dict whose keys are constants (strings or ints), as written: `{"hidden": 64}`.
// A file `open(path)` gave, in a launch (`check SCRIPT -- ARGS`): json.load
// reads it (interp_argparse.cpp).
struct FileObject : ObjectValue {
  explicit FileObject(std::string p) : ObjectValue("builtins.file"), path(std::move(p)) {}
  std::string path;
};

// A dict, or an nn.ModuleDict / nn.ParameterDict (class "torch.nn.ModuleDict"): its entries are
// also its attributes (`transformer.wte`), and it iterates, indexes and
// lists items like a dict of string keys.
struct DictObject : ObjectValue {
  DictObject() : ObjectValue("builtins.dict") {}
  explicit DictObject(std::string cls) : ObjectValue(std::move(cls)) {}
  bool is_module_dict() const { return class_name == "torch.nn.ModuleDict" || class_name == "torch.nn.ParameterDict"; }
  std::vector<std::pair<std::string, Value>> entries;  // key text → value, in insertion order
  bool complete = true;  // false: some entry has a key the analysis does not know
  const Value* find(const std::string& key) const;
  void set(const std::string& key, Value v);
};

// One of a few objects, where control flow joined two (`nn.Linear(d, d) if
// flag else nn.Identity()`, a layer or None): a call or an attribute read
// applies to each alternative that is not None (calling None fails anyway)
// and the results are joined. `condition`, kept for two alternatives made by
// a branch, holds exactly when the first one is the value.
struct ChoiceObject : ObjectValue {
  ChoiceObject() : ObjectValue("gshape.choice") {}
  std::vector<Value> alternatives;  // objects or None; no two the same; no choices
  std::optional<Pred> condition;
  bool has_none() const;
};

// Downcasts of a Value's object (nullptr when it is not of that kind).
template <class T>
T* object_as(const Value& v) {
  if (!v.is_object() || !v.as_object()) return nullptr;
  return dynamic_cast<T*>(v.as_object().get());
}
template <class T>
std::shared_ptr<T> shared_as(const Value& v) {
  if (!v.is_object() || !v.as_object()) return nullptr;
  return std::dynamic_pointer_cast<T>(v.as_object());
}

// The key of a constant dict key value (`'hidden'`, `3`), or nullopt.
std::optional<std::string> dict_key(const Value& v);

}  // namespace gshape::gradual::interp
