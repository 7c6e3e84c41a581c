// Builtins and library objects the analysis models itself because shapes
// flow through them: len/min/max/int/tuple/zip/enumerate/getattr/..., tensor
// size queries (x.size(0), x.dim(), x.numel()), nn.Sequential / ModuleList,
// nn.Module's own methods, argparse defaults, TensorDataset and DataLoader,
// list methods and constant-key dicts. Anything else is unknown.
#include <cctype>
#include <cmath>
#include <set>
#include <typeinfo>

#include "gradual/interp.h"
#include "gradual/interp_args.h"

namespace gshape::gradual::interp {

using namespace gshape::ir;

namespace {

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

std::string last_component(const std::string& path) {
  std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

// Tensor methods whose result is not a tensor.
const std::set<std::string>& non_tensor_methods() {
  static const std::set<std::string> names = {
      "item", "tolist", "numpy", "stride", "storage", "untyped_storage", "type", "is_contiguous",
      "is_floating_point", "is_complex", "get_device", "data_ptr", "element_size", "register_hook",
      "equal", "storage_offset", "dim_order", "__repr__", "__str__", "__format__", "is_set_to", "is_shared",
      "is_pinned", "has_names", "__reduce_ex__", "__bool__", "__int__", "__float__", "__index__", "tolist"};
  return names;
}

// torch's functions that are not tensor operations: seeds, devices, saving,
// grad modes, dtype queries ...
bool torch_utility(const std::string& name) {
  static const std::set<std::string> utilities = {
      "manual_seed", "seed", "initial_seed", "save", "load", "no_grad", "enable_grad", "inference_mode",
      "set_grad_enabled", "is_grad_enabled", "device", "dtype", "is_tensor", "is_storage", "numel",
      "set_printoptions", "get_default_dtype", "set_default_dtype", "set_default_tensor_type", "set_num_threads",
      "get_num_threads", "use_deterministic_algorithms", "compile", "typename", "is_floating_point", "is_complex",
      "finfo", "iinfo", "broadcast_shapes", "get_rng_state", "set_rng_state", "is_nonzero", "equal",
      "set_float32_matmul_precision", "are_deterministic_algorithms_enabled", "set_anomaly_enabled",
      "is_anomaly_enabled", "get_device", "from_numpy_", "result_type", "promote_types", "can_cast"};
  return utilities.count(name) > 0;
}

// A library function that returns a tensor: torch.nn.functional.* and torch.<op>
// (but not torch's utilities).
bool returns_tensor(const std::string& path) {
  if (path.rfind("torch.nn.functional.", 0) == 0) return path.find('.', 20) == std::string::npos;
  if (path.rfind("torch.", 0) != 0) return false;
  std::string name = path.substr(6);
  if (name.empty() || name.find('.') != std::string::npos || !std::islower(static_cast<unsigned char>(name[0])))
    return false;
  return !torch_utility(name);
}

// A torch operation of a submodule (torch.fft.fft, torch.linalg.norm): its
// result is unknown, and it has no rule yet (coverage). Not torch's
// utility submodules (cuda, distributed, random, utils, backends ...).
bool torch_submodule_op(const std::string& path) {
  static const std::vector<std::string> ops = {"torch.fft.", "torch.linalg.", "torch.special.", "torch.nn.init."};
  for (const std::string& p : ops)
    if (path.rfind(p, 0) == 0) return true;
  return false;
}

// A function of a third-party tensor library gshape has no rule for
// (einops, torchvision, timm, kornia): the call is not checked, and coverage
// says so.
bool tensor_library_call(const std::string& path) {
  static const std::vector<std::string> roots = {"einops.", "torchvision.", "timm.", "kornia."};
  for (const std::string& r : roots)
    if (path.rfind(r, 0) == 0) return true;
  return false;
}

// Tensor methods with no shape requirement to check (coverage does not count
// them as calls without a rule).
bool shape_neutral_method(const std::string& name) {
  static const std::set<std::string> names = {
      "Tensor.size", "Tensor.dim", "Tensor.ndimension", "Tensor.numel", "Tensor.nelement", "Tensor.backward",
      "Tensor.detach", "Tensor.detach_", "Tensor.requires_grad_", "Tensor.retain_grad", "Tensor.zero_",
      "Tensor.cpu", "Tensor.cuda", "Tensor.to", "Tensor.float", "Tensor.double", "Tensor.half", "Tensor.long",
      "Tensor.int", "Tensor.bool", "Tensor.byte", "Tensor.bfloat16", "Tensor.clone", "Tensor.contiguous",
      "Tensor.pin_memory", "Tensor.share_memory_", "Tensor.fill_", "Tensor.normal_", "Tensor.uniform_",
      "Tensor.bernoulli_", "Tensor.random_", "Tensor.copy_"};
  return names.count(name) > 0 || non_tensor_methods().count(name.substr(name.find('.') + 1)) > 0;
}

// Library functions that read data from outside the program (files, the
// user): what they give is known only when it runs.
bool reads_data(const std::string& path) {
  static const std::set<std::string> readers = {
      "builtins.open", "builtins.input", "numpy.load", "numpy.fromfile", "numpy.loadtxt", "numpy.genfromtxt",
      "numpy.memmap", "pickle.load", "pickle.loads", "json.load", "json.loads", "PIL.Image.open", "cv2.imread",
      "imageio.imread", "skimage.io.imread", "pandas.read_csv", "pandas.read_pickle", "pandas.read_parquet",
      "pandas.read_json", "scipy.io.loadmat", "h5py.File", "torchaudio.load", "soundfile.read", "librosa.load",
      "torch.load", "torch.jit.load", "csv.reader", "csv.DictReader", "yaml.safe_load", "yaml.load", "yaml.full_load"};
  return readers.count(path) > 0;
}

const std::set<std::string>& returns_self_methods() {
  static const std::set<std::string> names = {"to", "cuda", "cpu", "train", "eval", "float", "double", "half",
                                              "bfloat16", "requires_grad_", "apply", "share_memory", "type"};
  return names;
}

}  // namespace

Value Interpreter::library_attribute(const std::string& raw) {
  // an attribute of a module wrapper: the module, or a method of nn.Module's
  if (std::size_t dot = raw.rfind('.'); dot != std::string::npos) {
    if (std::shared_ptr<ModuleWrapper> w = wrapper_named(raw.substr(0, dot))) {
      std::string attr = raw.substr(dot + 1);
      if (const Value* v = w->attribute(attr)) return *v;
      return Value::object(std::make_shared<BoundBuiltin>(Value::object(w), w->wrapper_class + "." + attr));
    }
  }
  if (!library_overrides_.empty())
    if (auto it = library_overrides_.find(raw); it != library_overrides_.end()) return it->second;
  std::string path = raw;
  // torch.nn.modules.linear.Linear → torch.nn.Linear (the registry's names)
  if (starts_with(path, "torch.nn.modules.")) {
    std::string rest = path.substr(std::string("torch.nn.modules.").size());
    std::size_t dot = rest.find('.');
    if (dot != std::string::npos) path = "torch.nn." + rest.substr(dot + 1);
  }
  if (starts_with(path, "torch.utils.data.dataloader.")) path = "torch.utils.data." + last_component(path);
  if (starts_with(path, "torch.utils.data.dataset.")) path = "torch.utils.data." + last_component(path);
  if (starts_with(path, "torch.functional.")) path = "torch." + path.substr(std::string("torch.functional.").size());
  if (starts_with(path, "torch.Tensor.")) path = "Tensor." + path.substr(std::string("torch.Tensor.").size());
  if (!library_overrides_.empty())
    if (auto it = library_overrides_.find(path); it != library_overrides_.end()) return it->second;
  if (path == "math.pi") return Value::floating(M_PI);
  if (path == "sys.argv" && launch_applies_here()) {  // a launch's command line
    std::vector<Value> words{Value::string(options_.launch_script)};
    for (const std::string& w : *options_.launch_args) words.push_back(Value::string(w));
    return Value::list(std::move(words));
  }
  // otherwise a list of strings of unknown length (`int(sys.argv[1])` converts no tensor)
  if (path == "sys.argv") return Value::unknown_length(SequenceKind::List, Value::string());
  if (path == "math.e") return Value::floating(M_E);
  if (path == "math.inf") return Value::floating(INFINITY);
  return Value::object(std::make_shared<LibraryName>(path));
}

namespace {

// isinstance(v, cls) for one class given by its library path, when the
// value's kind decides it: an int is no tuple, a torch.Size is a tuple.
std::optional<bool> instance_of_class(const Value& v, const std::string& cls) {
  static const std::set<std::string> decidable = {"builtins.int",  "builtins.float", "builtins.str",
                                                   "builtins.tuple", "builtins.list", "builtins.dict",
                                                   "builtins.bool", "torch.Tensor",   "torch.Size"};
  if (!decidable.count(cls)) return std::nullopt;
  switch (v.kind()) {
    case ValueKind::Int: return cls == "builtins.int";
    case ValueKind::Bool: return cls == "builtins.bool" || cls == "builtins.int";
    case ValueKind::Float: return cls == "builtins.float";
    case ValueKind::Str: return cls == "builtins.str";
    case ValueKind::None: return false;
    case ValueKind::Tensor: return cls == "torch.Tensor";
    case ValueKind::Sequence:
      switch (v.sequence_kind()) {
        case SequenceKind::Tuple:  // a slice of a torch.Size may be a Size: not decided
          if (cls == "torch.Size") return std::nullopt;
          return cls == "builtins.tuple";
        case SequenceKind::List: return cls == "builtins.list";
        case SequenceKind::Size: return cls == "builtins.tuple" || cls == "torch.Size";
      }
      return std::nullopt;
    default: return std::nullopt;  // unknown values, objects (a dict subclass, a Tensor subclass ...)
  }
}

}  // namespace

// isinstance(inst, cls) for an instance of a project class, decided when
// every base is a project class or a library class: `cls` a project class is
// among its ancestors or not; a builtin type (dict, int, torch.Tensor ...)
// only through a library base, which torch.nn's modules and object are not
// (vit-pytorch's `if isinstance(vit, dict): vit = ViT(**vit)` with a ViT).
static std::optional<bool> project_instance_of(const InstanceObject& inst, const Value& cls) {
  std::vector<const ClassObject*> todo{inst.cls.get()};
  std::set<const ClassObject*> seen;
  std::vector<std::string> library_bases;
  while (!todo.empty()) {
    const ClassObject* c = todo.back();
    todo.pop_back();
    if (!c || !seen.insert(c).second) continue;
    for (const Value& b : c->bases) {
      if (const auto* bc = object_as<ClassObject>(b)) todo.push_back(bc);
      else if (const auto* lib = object_as<LibraryName>(b)) library_bases.push_back(lib->path);
      else return std::nullopt;  // a base the analysis does not know
    }
  }
  if (const auto* target = object_as<ClassObject>(cls)) return seen.count(target) > 0;
  const auto* lib = object_as<LibraryName>(cls);
  if (!lib) return std::nullopt;
  for (const std::string& b : library_bases)
    if (b == lib->path) return true;
  static const std::set<std::string> builtin_types = {"builtins.int",   "builtins.float", "builtins.str",
                                                      "builtins.tuple", "builtins.list",  "builtins.dict",
                                                      "builtins.bool",  "torch.Tensor",   "torch.Size"};
  if (!builtin_types.count(lib->path)) return std::nullopt;
  for (const std::string& b : library_bases)
    if (b != "builtins.object" && b.rfind("torch.nn.", 0) != 0) return std::nullopt;
  return false;
}

// isinstance(layer, cls) for a library layer a rule made (nn.ReLU(), a
// Sequential): decided against torch.nn's public classes, whose only
// public-to-public subclassing in torch 1.13 is ReLU6 of Hardtanh, the Lazy
// layers of their materialised class, and MultiheadAttention's out_proj of
// Linear (those stay undecided).
static std::optional<bool> library_layer_instance_of(const ObjectValue& layer, const Value& cls) {
  const std::string& mine = layer.class_name;
  if (mine.rfind("torch.nn.", 0) != 0) return std::nullopt;
  if (object_as<ClassObject>(cls)) return false;  // a project class: a library layer is none
  const auto* lib = object_as<LibraryName>(cls);
  if (!lib) return std::nullopt;
  const std::string& path = lib->path;
  if (path == mine || path == "torch.nn.Module") return true;
  auto public_class = [](const std::string& p) {
    std::string rest = p.rfind("torch.nn.", 0) == 0 ? p.substr(9) : std::string();
    return !rest.empty() && rest.find('.') == std::string::npos && rest[0] != '_' && std::isupper(static_cast<unsigned char>(rest[0]));
  };
  if (!public_class(path) || !public_class(mine)) return std::nullopt;
  if (mine.find("Lazy") != std::string::npos || mine.find("Quantizable") != std::string::npos ||
      (mine == "torch.nn.ReLU6" && path == "torch.nn.Hardtanh"))
    return std::nullopt;
  return false;
}

std::optional<bool> Interpreter::isinstance_of(const Value& v, const Value& classes) {
  if (const auto* inst = object_as<InstanceObject>(v); inst && !classes.is_sequence())
    return project_instance_of(*inst, classes);
  if (v.is_object() && v.as_object() && !classes.is_sequence() &&
      (typeid(*v.as_object()) == typeid(ObjectValue) || object_as<ContainerModule>(v)))
    if (std::optional<bool> is = library_layer_instance_of(*v.as_object(), classes)) return is;
  // an int, a string, a tensor ... is no instance of a project class
  if (object_as<ClassObject>(classes) && !v.is_unknown() && !v.is_object()) return false;
  if (const auto* lib = object_as<LibraryName>(classes)) return instance_of_class(v, lib->path);
  if (classes.is_sequence() && classes.items()) {
    bool undecided = false;
    for (const Value& c : *classes.items()) {
      std::optional<bool> one = isinstance_of(v, c);
      if (one && *one) return true;
      if (!one) undecided = true;
    }
    if (!undecided) return false;
  }
  return std::nullopt;
}

Value Interpreter::call_library(const std::string& path, const std::vector<ArgValue>& args, const Node* site) {
  if (last_component(path) == "register_module_forward_pre_hook" || last_component(path) == "register_module_forward_hook") {
    global_module_hooks_ = true;  // torch.nn.modules.module's hooks for every module
    memo_.clear();
    return Value::unknown();
  }
  // a builtin given `*xs` of known items (`zip(*cfg)`): the items are its arguments
  if (starts_with(path, "builtins.")) {
    bool expandable = false;
    for (const ArgValue& x : args)
      if (x.type == Argument::Type::Star) expandable = known_items(x.value, 256).has_value();
    if (expandable) {
      std::vector<ArgValue> expanded;
      for (const ArgValue& x : args) {
        std::optional<std::vector<Value>> items;
        if (x.type == Argument::Type::Star && (items = known_items(x.value, 256))) {
          for (Value& item : *items) expanded.push_back(ArgValue{Argument::Type::Positional, {}, std::move(item), nullptr, {}});
          continue;
        }
        expanded.push_back(x);
      }
      bool all = true;
      for (const ArgValue& x : expanded) all = all && x.type != Argument::Type::Star;
      if (all) return call_library(path, expanded, site);
    }
  }
  Args a(args);
  const SourceLoc& loc = site->loc;
  auto arg0 = [&]() -> const Value* { return a.positional.empty() ? nullptr : &a.positional.front()->value; };
  if (std::shared_ptr<ModuleWrapper> w = wrapper_named(path)) return call_module_wrapper(*w, args, site);

  // types.MethodType(f, obj): f bound to obj (`m.forward = types.MethodType(new_forward, m)`)
  if (path == "types.MethodType" && a.positional.size() == 2 && !a.has_star) {
    if (auto fn = shared_as<FunctionObject>(a.positional[0]->value)) {
      auto bm = std::make_shared<BoundMethod>();
      bm->self = a.positional[1]->value;
      bm->function = fn;
      return Value::object(bm);
    }
  }
  // a launch's config files; with --args=symbolic those of the default paths
  const bool read_configs = options_.launch_args || options_.symbolic_args;
  if ((path == "json.load" || path == "json.loads") && read_configs && arg0()) {
    if (std::optional<Value> v = read_launch_json(*arg0(), path == "json.loads", site)) return *v;
  }
  if ((path == "yaml.safe_load" || path == "yaml.load" || path == "yaml.full_load") && read_configs && arg0()) {
    if (std::optional<Value> v = read_launch_yaml(*arg0(), site)) return *v;
  }
  if (starts_with(path, "torchvision.")) {
    if (std::optional<Value> v = call_torchvision(path, args, site)) return *v;
  }
  // torch.is_tensor(v): decided for a value whose kind is known
  if (path == "torch.is_tensor" && a.positional.size() == 1) {
    const Value& v = *arg0();
    if (v.is_tensor()) return Value::boolean(Pred(true));
    if (v.is_int() || v.is_bool() || v.is_float() || v.is_str() || v.is_none() || v.is_sequence())
      return Value::boolean(Pred(false));
    return Value::unknown();
  }
  // ---- what the program reads when it runs: unknown, and the review says why
  if (reads_data(path) && !(path == "builtins.open" && read_configs))  // a launch's config file: read below
    return run_time_data(site, path == "builtins.input" ? "reads input" : "reads a file");
  // ---- Python builtins whose meaning on ints and sequences is ours
  if (starts_with(path, "builtins.")) {
    std::string name = path.substr(9);
    // pow(a, b) with a tensor is a ** b (builtins.pow has operator.pow's rule)
    if (name == "pow" && a.positional.size() == 2 && !a.has_star &&
        (a.positional[0]->value.is_tensor() || a.positional[1]->value.is_tensor())) {
      if (auto r = apply_named_rule(path, std::nullopt, args, site)) return *r;
    }
    if (name == "open" && read_configs && arg0() && arg0()->is_str() && arg0()->as_str()) {
      // a launch's config file: json.load may read it
      const ArgValue* mode = a.positional.size() > 1 ? a.positional[1] : a.kw("mode");
      bool reading = !mode || (mode->value.is_str() && mode->value.as_str() && *mode->value.as_str() == "r");
      if (reading) return Value::object(std::make_shared<FileObject>(*arg0()->as_str()));
    }
    if (name == "type" && a.positional.size() == 1 && a.list.size() == 1) {
      // `type(self).dim = 6` writes the class attribute every instance reads
      if (const auto* inst = object_as<InstanceObject>(*arg0())) return Value::object(inst->cls);
    }
    if (name == "isinstance" && a.positional.size() == 2) {
      std::optional<bool> is = isinstance_of(a.positional[0]->value, a.positional[1]->value);
      return is ? Value::boolean(Pred(*is)) : Value::unknown();
    }
    if (name == "len" && arg0()) {
      const Value& v = *arg0();
      if (v.is_sequence() && v.items()) return Value::integer(static_cast<int64_t>(v.items()->size()));
      if (v.is_tensor() && v.shape().rank_known() && v.shape().rank() >= 1) return Value::integer(v.shape()[0]);
      if (v.is_tensor() && !v.shape().rank_known()) return size_of_unknown(a.positional.front()->expr, 0);
      if (v.is_str() && v.as_str()) return Value::integer(static_cast<int64_t>(v.as_str()->size()));
      if (const auto* c = object_as<ContainerModule>(v); c && c->children_known)
        return Value::integer(static_cast<int64_t>(c->children.size()));
      if (const auto* d = object_as<DictObject>(v); d && d->complete)
        return Value::integer(static_cast<int64_t>(d->entries.size()));
      if (const auto* ds = object_as<DatasetObject>(v)) {
        if (auto n = ds->length()) return Value::integer(*n);
      }
      if (const auto* r = v.is_object() && v.as_object() && v.as_object()->class_name == "builtins.range" ? v.as_object().get() : nullptr) {
        if (const Value* len = r->attribute("len")) return *len;
      }
      if (const auto* loader = object_as<DataLoaderObject>(v)) {
        const auto* ds = object_as<DatasetObject>(loader->dataset);
        auto n = ds ? ds->length() : std::nullopt;
        if (n && loader->batch_size.is_int() && loader->drop_last) {
          const Dim& b = loader->batch_size.as_int();
          try {
            return Value::integer(*loader->drop_last ? floordiv(*n, b) : floordiv(*n + b - Dim(1), b));
          } catch (const std::exception&) {
          }
        }
      }
      if (auto inst = shared_as<InstanceObject>(v)) {
        if (const Value* len = inst->cls->lookup("__len__")) {
          if (auto fn = shared_as<FunctionObject>(*len)) return call_function(fn, {}, v, site);
        }
      }
      // the length of what only the run knows: a size, with the same cause
      return v.cause() ? fresh_int("len").with_cause(v.cause()) : fresh_int("len");
    }
    if ((name == "min" || name == "max") && !a.has_star) {
      std::vector<Value> operands;
      if (a.positional.size() == 1) {
        auto items = known_items(a.positional.front()->value, 64);
        if (!items) return Value::unknown();
        operands = *items;
      } else {
        for (const ArgValue* p : a.positional) operands.push_back(p->value);
      }
      if (operands.empty()) return Value::unknown();
      bool ints = true, numbers = true;
      for (const Value& v : operands) {
        ints = ints && (v.is_int() || v.is_bool());
        numbers = numbers && (v.is_int() || v.is_bool() || v.is_float());
      }
      // with a key, the item whose key is largest (`max(xs, key=lambda v: -v)`
      // is the smallest): one of them, not their maximum
      if (a.kw("key")) {
        Value either = operands.front();
        for (std::size_t i = 1; i < operands.size(); ++i) either = join_values(either, operands[i], {}, name);
        if (const ArgValue* d = a.kw("default")) either = join_values(either, d->value, {}, name);
        return either;
      }
      if (ints) {
        try {
          Dim r = *int_of(&operands.front());
          for (std::size_t i = 1; i < operands.size(); ++i)
            r = name == "min" ? min(r, *int_of(&operands[i])) : max(r, *int_of(&operands[i]));
          return Value::integer(r);
        } catch (const std::exception&) {
          return Value::unknown();
        }
      }
      if (numbers) return Value::floating();
      // max(lists, key=len): one of them, each as it is (a change through
      // the result changes that list)
      bool lists = true;
      for (const Value& v : operands) lists = lists && v.is_sequence() && v.sequence_kind() == SequenceKind::List;
      if (lists) {
        Value either = operands.front();
        for (std::size_t i = 1; i < operands.size(); ++i) either = join_values(either, operands[i], {}, name);
        return either;
      }
      return Value::unknown();
    }
    if (name == "abs" && arg0() && (arg0()->is_int() || arg0()->is_float())) {
      if (arg0()->is_int()) return Value::integer(abs(arg0()->as_int()));
      return arg0()->as_float() ? Value::floating(std::fabs(*arg0()->as_float())) : Value::floating();
    }
    if ((name == "int" || name == "float" || name == "bool") && arg0() && a.positional.size() == 1 && !a.has_star) {
      // a tensor converted to a Python scalar needs exactly one element
      // (builtins.int ...: item_c1, truth_c1); a value of unknown kind may be one
      if (arg0()->is_tensor()) {
        apply_named_rule(path, std::nullopt, args, site);
        return name == "float" ? Value::floating() : Value::unknown();
      }
      if (arg0()->is_unknown()) note_unresolved(site, "the converted operand is not known (it may be a tensor)");
    }
    if (name == "int") {
      const Value* v = arg0();
      if (!v) return Value::integer(0);
      if (v->is_int()) return *v;
      if (v->is_bool() && v->as_bool().is_constant()) return Value::integer(v->as_bool().is_true() ? 1 : 0);
      if (v->is_float() && v->as_float() && std::fabs(*v->as_float()) < 9e18)
        return Value::integer(static_cast<int64_t>(*v->as_float()));
      if (v->is_str() && v->as_str()) {
        try {
          std::size_t used = 0;
          long long x = std::stoll(*v->as_str(), &used);
          if (used == v->as_str()->size()) return Value::integer(static_cast<int64_t>(x));
        } catch (const std::exception&) {
        }
      }
      // int(s) of a string or a float is an int (or raises): `[int(s) for s in text]` is a list of ints
      if (a.positional.size() == 1 && (v->is_str() || v->is_float())) return fresh_int("int", false);
      return Value::unknown();
    }
    if (name == "float") {
      const Value* v = arg0();
      if (v && v->is_float()) return *v;
      if (auto d = int_of(v); d && d->constant_value()) return Value::floating(static_cast<double>(*d->constant_value()));
      return Value::floating();
    }
    if (name == "str" || name == "repr" || name == "format" || name == "chr" || name == "hex") return Value::string();
    if (name == "bool") {
      if (!arg0()) return Value::boolean(false);
      auto p = truth(*arg0());
      return p ? Value::boolean(*p) : Value::unknown();
    }
    if (name == "tuple" || name == "list") {
      SequenceKind kind = name == "tuple" ? SequenceKind::Tuple : SequenceKind::List;
      if (!arg0()) return Value::sequence(kind, {});
      if (auto items = known_items(*arg0(), 4096)) return Value::sequence(kind, *items);
      return Value::unknown_length(kind, any_element(*arg0(), "item"));
    }
    if ((name == "setattr" || name == "delattr" || name == "vars") && arg0()) forget_attribute_hints(*arg0());
    if (name == "print" || name == "setattr" || name == "delattr" || name == "exit" || name == "quit") {
      if (name == "setattr" && a.positional.size() == 3 && a.positional[1]->value.is_str() && a.positional[1]->value.as_str()) {
        set_attribute(a.positional[0]->value, *a.positional[1]->value.as_str(), a.positional[2]->value, loc);
      } else if (name == "setattr" && a.positional.size() == 3) {
        // a name the analysis does not know: any attribute may be the one set
        forget_object(a.positional[0]->value);
      }
      return Value::none();
    }
    if (name == "getattr" && a.positional.size() >= 2 && a.positional[1]->value.is_str() && a.positional[1]->value.as_str()) {
      const Value& obj = a.positional[0]->value;
      const std::string& attr = *a.positional[1]->value.as_str();
      if (auto inst = shared_as<InstanceObject>(obj); inst && !inst->attribute(attr) && !inst->cls->lookup(attr) &&
                                                        a.positional.size() == 3)
        return a.positional[2]->value;
      return get_attribute(obj, attr, a.positional[0]->expr, site);
    }
    if (name == "enumerate" && arg0()) {
      Dim start(0);
      if (auto s = int_of(a.get(1, "start"))) start = *s;
      if (auto items = known_items(*arg0(), 4096)) {
        std::vector<Value> out;
        for (std::size_t i = 0; i < items->size(); ++i)
          out.push_back(Value::tuple({Value::integer(start + Dim(static_cast<int64_t>(i))), (*items)[i]}));
        return Value::list(std::move(out));
      }
      auto e = std::make_shared<EnumerateObject>(*arg0());
      e->start = start;
      return Value::object(e);
    }
    if (name == "zip") {
      if (a.has_star) return Value::unknown();
      std::vector<std::vector<Value>> lists;
      bool known = true;
      for (const ArgValue* p : a.positional) {
        auto items = known_items(p->value, 4096);
        if (!items) {
          known = false;
          break;
        }
        lists.push_back(*items);
      }
      if (known) {
        std::size_t n = lists.empty() ? 0 : lists.front().size();
        for (const auto& l : lists) n = std::min(n, l.size());
        std::vector<Value> out;
        for (std::size_t i = 0; i < n; ++i) {
          std::vector<Value> tuple;
          for (const auto& l : lists) tuple.push_back(l[i]);
          out.push_back(Value::tuple(std::move(tuple)));
        }
        return Value::list(std::move(out));
      }
      auto z = std::make_shared<ZipObject>();
      for (const ArgValue* p : a.positional) z->inners.push_back(p->value);
      return Value::object(z);
    }
    if (name == "map" && a.positional.size() >= 2 && !a.has_star && a.positional.size() == args.size()) {
      // the function is followed on each element (on one element standing for
      // all of them when the length is unknown); the result is a list
      const Value& fn = a.positional.front()->value;
      const ir::Expr* fn_expr = a.positional.front()->expr;
      // a library function mapped (`map(torch.matmul, xs, ws)`): its calls
      // happen inside map, where no run-time check reaches them
      if (object_as<LibraryName>(fn) || object_as<BoundBuiltin>(fn)) note_no_rule(site, "builtins.map of a library function");
      std::vector<std::vector<Value>> lists;
      bool known = true;
      for (std::size_t i = 1; i < a.positional.size() && known; ++i) {
        auto items = known_items(a.positional[i]->value, 256);
        if (items) lists.push_back(std::move(*items));
        else known = false;
      }
      auto apply = [&](std::vector<Value> operands) {
        std::vector<ArgValue> call_args;
        for (Value& v : operands) call_args.push_back(ArgValue{Argument::Type::Positional, {}, std::move(v), nullptr, {}});
        return call_value(fn, fn_expr, call_args, site);
      };
      if (known) {
        std::size_t n = lists.front().size();
        for (const auto& l : lists) n = std::min(n, l.size());
        std::vector<Value> out;
        for (std::size_t i = 0; i < n; ++i) {
          std::vector<Value> operands;
          for (const auto& l : lists) operands.push_back(l[i]);
          out.push_back(apply(std::move(operands)));
        }
        return Value::list(std::move(out));
      }
      std::vector<Value> operands;
      for (std::size_t i = 1; i < a.positional.size(); ++i) operands.push_back(any_element(a.positional[i]->value, "item"));
      return Value::unknown_length(SequenceKind::List, apply(std::move(operands)));
    }
    if (name == "reversed" && arg0()) {
      if (auto items = known_items(*arg0(), 4096)) return Value::list(std::vector<Value>(items->rbegin(), items->rend()));
      return Value::unknown();
    }
    if (name == "sorted" && arg0()) {
      auto items = known_items(*arg0(), 4096);
      // constant ints (sizes in a config) sort here: each keeps its own value
      if (items && !a.kw("key")) {
        std::vector<int64_t> ints;
        for (const Value& v : *items)
          if (v.is_int() && v.as_int().is_constant()) ints.push_back(*v.as_int().constant_value());
        const ArgValue* rev = a.kw("reverse");
        std::optional<bool> reverse = !rev ? std::optional<bool>(false)
                                           : rev->value.is_bool() ? rev->value.as_bool().constant_value() : std::nullopt;
        if (ints.size() == items->size() && reverse) {
          std::sort(ints.begin(), ints.end());
          if (*reverse) std::reverse(ints.begin(), ints.end());
          std::vector<Value> out;
          for (int64_t i : ints) out.push_back(Value::integer(i));
          return Value::list(std::move(out));
        }
      }
      return items ? Value::unknown_length(SequenceKind::List, any_element(*arg0(), "item")) : Value::unknown();
    }
    if (name == "sum" && arg0()) {
      auto items = known_items(*arg0(), 4096);
      if (!items) return Value::unknown();
      const Value* start = a.get(1, "start");
      bool ints = !start || start->is_int() || start->is_bool();
      bool tensors = !start || (start->is_int() && start->as_int().is_constant());  // 0 + t1 + t2 ...
      for (const Value& v : *items) {
        ints = ints && (v.is_int() || v.is_bool());
        tensors = tensors && v.is_tensor();
      }
      bool any_tensor = start && start->is_tensor();
      for (const Value& v : *items) any_tensor = any_tensor || v.is_tensor();
      // tensors broadcast together (builtins.sum's broadcast_c1)
      if (any_tensor) apply_named_rule(path, std::nullopt, args, site);
      if (tensors && !items->empty()) {
        // tensors of one shape sum to that shape (nothing to broadcast);
        // of several shapes, to a tensor whose broadcast is not followed here
        const Value& first = items->front();
        for (const Value& v : *items)
          if (!v.shape().rank_known() || v.shape().str() != first.shape().str()) return Value::tensor(Shape::unknown(), false);
        return Value::tensor(first.shape());
      }
      if (!ints) return Value::unknown();
      try {
        Dim total = start ? *int_of(start) : Dim(0);
        for (const Value& v : *items) total = total + *int_of(&v);
        return Value::integer(total);
      } catch (const std::exception&) {
        return Value::unknown();
      }
    }
    if (name == "super") {
      auto sup = std::make_shared<SuperObject>();
      if (a.positional.size() >= 2) {
        sup->cls = object_as<ClassObject>(a.positional[0]->value);
        sup->self = a.positional[1]->value;
      } else {
        sup->cls = frame().owner;
        sup->self = frame().self;
      }
      return Value::object(sup);
    }
    if (name == "iter" && arg0()) {
      if (object_as<DataLoaderObject>(*arg0())) return Value::object(std::make_shared<LoaderIterator>(*arg0()));
      return *arg0();
    }
    if (name == "next" && arg0()) {
      // next(iter(loader)) is the first batch; next(it) of an iterator made
      // before may be any batch, the last partial one too
      const auto* made_here = dyn_cast<Call>(a.positional.front()->expr);
      const auto* iter_name = made_here ? dyn_cast<Name>(made_here->func) : nullptr;
      bool fresh = iter_name && iter_name->id == "iter";
      if (const auto* it = object_as<LoaderIterator>(*arg0())) return fresh ? first_batch(it->loader) : any_batch(it->loader);
      return any_element(*arg0(), "item");
    }
    if (name == "range") {
      // the registry's rule (pyrange_c1 and the range object)
      if (auto r = apply_named_rule(path, std::nullopt, args, site)) return *r;
    }
    if (name == "abs") {
      if (auto r = apply_named_rule(path, std::nullopt, args, site)) return *r;
    }
    if (name == "dict") {
      auto d = std::make_shared<DictObject>();
      // dict(other): the same values (a list in it is the other's list)
      if (const auto* other = arg0() && a.positional.size() == 1 ? object_as<DictObject>(*arg0()) : nullptr;
          other && !other->is_module_dict() && !a.has_star) {
        d->entries = other->entries;
        d->complete = other->complete;
      } else if (arg0()) {
        d->complete = false;
      }
      for (const ArgValue& x : args)
        if (x.type == Argument::Type::Keyword) d->set("s:" + x.name, x.value);
      return Value::object(d);
    }
    if (name == "round") {
      // round(x) of a number is an int (banker's rounding, as Python); with
      // ndigits, or of something else (a tensor, a numpy value), unknown
      const Value* x = arg0();
      if (!x || a.positional.size() != 1 || a.kw("ndigits")) return Value::unknown();
      if (x->is_int()) return *x;
      if (x->is_float() && x->as_float() && std::fabs(*x->as_float()) < 9e18)
        return Value::integer(static_cast<int64_t>(std::nearbyint(*x->as_float())));
      if (x->is_float()) return fresh_int("round", false);
      return Value::unknown();
    }
    return Value::unknown();
  }

  // ---- the operator rules of the registry
  if (auto r = apply_named_rule(path, std::nullopt, args, site)) return *r;

  // ---- library objects shapes flow through
  if (auto wrapper = make_module_wrapper(path, args, site)) return *wrapper;
  if (path == "torch.nn.ModuleDict" || path == "torch.nn.ParameterDict") {
    // nn.ModuleDict(dict(...)), ({...}), ([(key, module), ...]) or (): a copy
    // (nn.ParameterDict alike, of tensors)
    // of the entries; anything else and its keys are not known
    auto d = std::make_shared<DictObject>(path);
    if (arg0()) {
      if (const auto* from = object_as<DictObject>(*arg0())) {
        d->entries = from->entries;
        d->complete = from->complete;
      } else if (auto pairs = known_items(*arg0(), 4096)) {
        for (const Value& pair : *pairs) {
          const std::vector<Value>* kv = pair.is_sequence() ? pair.items() : nullptr;
          if (kv && kv->size() == 2 && (*kv)[0].is_str() && (*kv)[0].as_str()) d->set("s:" + *(*kv)[0].as_str(), (*kv)[1]);
          else d->complete = false;
        }
      } else {
        d->complete = false;
      }
    }
    note_created(d.get(), loc);
    return Value::object(d);
  }
  if (path == "torch.nn.Sequential" || path == "torch.nn.ModuleList" || path == "torch.nn.ParameterList") {
    // (nn.ParameterList is a ModuleList of tensors: indexed, iterated, appended)
    auto c = std::make_shared<ContainerModule>(path);
    c->fixpoint_loops = fixpoint_loops_;
    if (path == "torch.nn.Sequential") {
      for (const ArgValue& x : args) {
        if (x.type == Argument::Type::Positional) {
          if (x.value.is_object() && object_as<DictObject>(x.value) == nullptr) {
            c->children.push_back(x.value);
            c->child_exprs.resize(c->children.size() - 1, nullptr);
            c->child_exprs.push_back(x.expr);
          } else {
            c->children_known = false;  // an OrderedDict or something unknown
          }
        } else if (x.type == Argument::Type::Star) {
          auto items = known_items(x.value, 4096);
          if (items) c->children.insert(c->children.end(), items->begin(), items->end());
          else c->children_known = false;
        } else {
          c->children_known = false;
        }
      }
    } else if (arg0()) {
      auto items = known_items(*arg0(), 4096);
      if (items) {
        c->children = *items;
      } else {
        // `[Block(config) for _ in range(config.n_layer)]`: any number of
        // children, each like the list's element (kept as the sample)
        c->children_known = false;
        if (arg0()->is_sequence() && arg0()->element() && !arg0()->element()->is_unknown()) c->children = {*arg0()->element()};
      }
    }
    note_created(c.get(), loc);
    return Value::object(c);
  }
  if (path == "torch.utils.data.TensorDataset") {
    auto ds = std::make_shared<DatasetObject>();
    for (const ArgValue& x : args) {
      if (x.type == Argument::Type::Positional) ds->tensors.push_back(x.value);
      else if (x.type == Argument::Type::Star) {
        auto items = known_items(x.value, 64);
        if (!items) return Value::unknown();
        ds->tensors.insert(ds->tensors.end(), items->begin(), items->end());
      }
    }
    note_created(ds.get(), loc);
    return Value::object(ds);
  }
  if (path == "torch.utils.data.DataLoader") {
    auto loader = std::make_shared<DataLoaderObject>();
    loader->loc = loc;
    // `DataLoader(ds, **kwargs)`: a keyword the dicts agree on (every
    // alternative of a dict joined over branches gives it the same value, or
    // none gives it) is read from them; otherwise batches are not modelled.
    bool dicts_known = true;
    for (const ArgValue& x : args) {
      if (x.type == Argument::Type::Star) dicts_known = false;
      if (x.type != Argument::Type::DoubleStar) continue;
      const auto* choice = object_as<ChoiceObject>(x.value);
      if (const auto* d = object_as<DictObject>(x.value)) dicts_known = dicts_known && d->complete;
      else if (choice) {
        for (const Value& alt : choice->alternatives) {
          const auto* one = object_as<DictObject>(alt);
          dicts_known = dicts_known && one && one->complete;
        }
      } else {
        dicts_known = false;
      }
    }
    bool agree = true;
    auto from_dicts = [&](const std::string& key) -> std::optional<Value> {
      std::optional<Value> found;
      for (const ArgValue& x : args) {
        if (x.type != Argument::Type::DoubleStar) continue;
        std::vector<Value> alts{x.value};
        if (const auto* choice = object_as<ChoiceObject>(x.value)) alts = choice->alternatives;
        std::optional<std::optional<Value>> here;  // this argument's value for key: absent or one value
        for (const Value& alt : alts) {
          const auto* d = object_as<DictObject>(alt);
          const Value* v = d ? d->find("s:" + key) : nullptr;
          std::optional<Value> mine = v ? std::optional<Value>(*v) : std::nullopt;
          if (!here) here = mine;
          else if (here->has_value() != mine.has_value() || (mine && !same_value(**here, *mine))) agree = false;
        }
        if (here && *here) found = **here;
      }
      return found;
    };
    auto keyword = [&](std::size_t pos, const std::string& key) -> std::optional<Value> {
      if (const Value* v = a.get(pos, key)) return *v;
      return dicts_known ? from_dicts(key) : std::nullopt;
    };
    std::optional<Value> ds = keyword(0, "dataset");
    loader->dataset = ds ? *ds : Value::unknown();
    std::optional<Value> bs = keyword(1, "batch_size");
    loader->batch_size = bs ? *bs : Value::integer(1);
    std::optional<Value> dl = keyword(8, "drop_last");
    loader->drop_last = dl ? bool_of(&*dl) : std::optional<bool>(false);
    // a custom sampler, batch sampler or collate function: batches are not modelled
    bool custom = false;
    for (const char* k : {"sampler", "batch_sampler", "collate_fn"}) custom = custom || keyword(99, k).has_value();
    if (custom || a.positional.size() > 3 || !dicts_known || !agree) loader->dataset = Value::unknown();
    if (loader->batch_size.is_none()) loader->dataset = Value::unknown();
    // the default collate stacks a batch's samples: "stack expects each
    // tensor to be equal size" when a project dataset's samples differ,
    // which no rule checks (batch_size=None does not collate)
    if (site && !custom && !loader->batch_size.is_none() && !(bs && bs->is_int() && bs->as_int() == Dim(1)) &&
        ds && samples_may_differ(*ds))
      note_no_rule(site, "torch.utils.data.DataLoader collating samples that may differ in shape");
    note_created(loader.get(), loc);
    return Value::object(loader);
  }
  if (path == "argparse.ArgumentParser") {
    auto p = std::make_shared<ArgParserObject>();
    note_created(p.get(), loc);
    if (const ArgValue* f = a.kw("fromfile_prefix_chars"); f && !f->value.is_none()) {
      if (f->value.is_str() && f->value.as_str()) p->fromfile_prefix_chars = *f->value.as_str();
      else p->unknown_prefix = true;
    }
    if (const ArgValue* pa = a.kw("parents")) inherit_arguments(*p, pa->value);
    return Value::object(p);
  }
  if (path == "torch.Size" && arg0()) {
    if (auto items = known_items(*arg0(), 64)) return Value::sequence(SequenceKind::Size, *items);
    return Value::unknown_length(SequenceKind::Size, Value::unknown());
  }
  if (starts_with(path, "math.")) {
    std::string f = path.substr(5);
    if (f == "prod" && arg0()) {
      auto items = known_items(*arg0(), 64);
      if (items) {
        try {
          Dim p(1);
          for (const Value& v : *items) {
            auto d = int_of(&v);
            if (!d) return Value::unknown();
            p = p * *d;
          }
          return Value::integer(p);
        } catch (const std::exception&) {
          return Value::unknown();
        }
      }
      return Value::unknown();
    }
    if ((f == "ceil" || f == "floor") && arg0()) {
      if (arg0()->is_int()) return *arg0();
      if (arg0()->is_float() && arg0()->as_float() && std::fabs(*arg0()->as_float()) < 9e18)
        return Value::integer(static_cast<int64_t>(f == "ceil" ? std::ceil(*arg0()->as_float()) : std::floor(*arg0()->as_float())));
      return Value::unknown();
    }
    if (f == "sqrt" || f == "log" || f == "exp" || f == "log2" || f == "cos" || f == "sin" || f == "pow") {
      if (arg0() && a.positional.size() == 1) {
        std::optional<double> x;
        if (arg0()->is_float()) x = arg0()->as_float();
        else if (auto d = int_of(arg0()); d && d->constant_value()) x = static_cast<double>(*d->constant_value());
        if (x && f == "sqrt" && *x >= 0) return Value::floating(std::sqrt(*x));
      }
      return Value::floating();
    }
    return Value::unknown();
  }
  if (path == "dataclasses.replace" && arg0() && a.positional.size() == 1 && !a.has_star) {
    // a shallow copy with the fields named set: the other fields' lists are
    // the original's (tester7/03)
    std::map<const ObjectValue*, Value> copied;
    Value copy = copy_value(*arg0(), false, copied, 0);
    if (auto inst = shared_as<InstanceObject>(copy); inst && inst != arg0()->as_object()) {
      for (const ArgValue& x : args)
        if (x.type == Argument::Type::Keyword) write_object_attribute(inst, x.name, x.value);
      return copy;
    }
    return Value::unknown();
  }
  // one of the sequence's items itself, not a copy: a change through it
  // (`random.choice(lists)[0] = 6`) changes the list it picked
  if (path == "random.choice" && arg0() && arg0()->is_sequence()) return some_item(any_element(*arg0(), "item"));
  if ((path == "copy.deepcopy" || path == "copy.copy") && arg0()) {
    std::map<const ObjectValue*, Value> copied;
    return copy_value(*arg0(), path == "copy.deepcopy", copied, 0);
  }
  if ((path == "torch.jit.script" || path == "torch.jit.trace" || path == "torch.jit.trace_module") && arg0())
    return torchscript_copy(*arg0());
  if (path == "itertools.accumulate" && (a.positional.size() >= 2 || a.kw("func"))) {
    // accumulate(xs, f): f's calls happen inside itertools, no check reaches them
    note_no_rule(site, "itertools.accumulate");
    return Value::unknown();
  }
  if (path == "functools.reduce" && a.positional.size() >= 2 && !a.has_star) {
    // reduce(f, items[, initial]) of known items: f folded over them, as
    // Python calls it. Tensors among them: their calls have no check at run
    // time (the site calls functools.reduce), so the call is listed as not
    // checked and its value is unknown.
    std::optional<std::vector<Value>> items = known_items(a.positional[1]->value, 64);
    bool tensors = !items;
    if (items)
      for (const Value& v : *items) tensors = tensors || v.is_tensor() || v.is_unknown();
    if (a.positional.size() > 2) tensors = tensors || a.positional[2]->value.is_tensor();
    if (tensors) {
      note_no_rule(site, "functools.reduce");
      return Value::unknown();
    }
    std::vector<Value> seq = *items;
    if (a.positional.size() > 2) seq.insert(seq.begin(), a.positional[2]->value);
    if (seq.empty()) return Value::unknown();  // TypeError in Python
    Value acc = seq.front();
    for (std::size_t i = 1; i < seq.size(); ++i)
      acc = call_value(a.positional[0]->value, nullptr,
                       {ArgValue{Argument::Type::Positional, {}, acc, nullptr, {}},
                        ArgValue{Argument::Type::Positional, {}, seq[i], nullptr, {}}},
                       site);
    return acc;
  }
  if (path == "functools.partial" && arg0() && !a.has_star) {
    auto p = std::make_shared<PartialObject>();
    p->func = *arg0();
    for (std::size_t i = 1; i < a.positional.size(); ++i) p->args.push_back(a.positional[i]->value);
    for (const ArgValue& x : args)
      if (x.type == Argument::Type::Keyword) p->keywords.emplace_back(x.name, x.value);
    return Value::object(p);
  }
  if (path == "types.SimpleNamespace" || path == "argparse.Namespace") {
    auto ns = std::make_shared<ObjectValue>(path);
    for (const ArgValue& x : args)
      if (x.type == Argument::Type::Keyword) ns->attributes[x.name] = x.value;
    return Value::object(ns);
  }
  if (path == "collections.OrderedDict") {
    auto d = std::make_shared<DictObject>();
    d->complete = args.empty();
    return Value::object(d);
  }
  // torch functions without a rule give tensors of unknown shape (never an error)
  if (returns_tensor(path)) {
    note_no_rule(site, path);
    return Value::tensor(Shape::unknown(), false);
  }
  // an nn module class without rules yet: an object whose forward a later rule may model
  if (starts_with(path, "torch.nn.") && !starts_with(path, "torch.nn.functional.") && !starts_with(path, "torch.nn.init.")) {
    std::string last = last_component(path);
    if (!last.empty() && std::isupper(static_cast<unsigned char>(last[0]))) {
      note_no_rule(site, path);
      auto obj = std::make_shared<ObjectValue>(path);
      note_created(obj.get(), loc);
      return Value::object(obj);
    }
  }
  if (torch_submodule_op(path) && path.rfind("torch.nn.init.", 0) != 0) note_no_rule(site, path);
  else if (tensor_library_call(path)) note_no_rule(site, path);
  else if (!starts_with(path, "builtins.") && !starts_with(path, "torch."))
    note_unknown_cause(site, "which the analysis does not model (" + path + ")", path + " is not modelled",
                       UnknownCause::Kind::Library);
  return Value::unknown();
}

// `stack.enter_context(cm)` (contextlib.ExitStack) of a project context
// manager: its __enter__ runs now; its __exit__ when the stack closes, at a
// time not followed, so what it writes is unknown from now on (tester7/07).
// nullopt: `cm` is not a project object.
std::optional<Value> Interpreter::enter_context(const Value& cm, const Node* site) {
  auto inst = shared_as<InstanceObject>(cm);
  if (!inst) return std::nullopt;
  const Value* enter = inst->cls->lookup("__enter__");
  const Value* exit = inst->cls->lookup("__exit__");
  auto enter_fn = enter ? shared_as<FunctionObject>(*enter) : nullptr;
  auto exit_fn = exit ? shared_as<FunctionObject>(*exit) : nullptr;
  Value entered = enter_fn ? call_function(enter_fn, {}, cm, site) : Value::unknown();
  if (enter && !enter_fn) forget_object(cm);
  if (exit_fn) {
    std::vector<ArgValue> none(3, ArgValue{Argument::Type::Positional, {}, Value::none(), nullptr, {}});
    run_at_unknown_time([&] { call_function(exit_fn, none, cm, site); });
  } else if (exit) {
    forget_object(cm);
  }
  return entered;
}

Value Interpreter::call_method(const BoundBuiltin& method, const std::optional<Receiver>& receiver,
                               const std::vector<ArgValue>& args, const Node* site, const Expr* receiver_target) {
  const std::string& name = method.name;
  Value self = method.receiver;
  // a rule of the registry (Tensor.view, torch.nn.Linear.forward, ...)
  if (auto r = apply_named_rule(name, receiver, args, site)) return *r;
  if (last_component(name) == "enter_context" && args.size() == 1)
    if (std::optional<Value> entered = enter_context(args.front().value, site)) return *entered;
  if (starts_with(name, "Tensor.") && !shape_neutral_method(name)) note_no_rule(site, name);
  // super().__init__(...) in a project subclass of a library module (`class
  // Layer(nn.Linear)`): the library constructor's rule builds the module, and
  // the instance gets what it holds (weight, bias, in_features ...)
  if (name.size() > 9 && name.compare(name.size() - 9, 9, ".__init__") == 0 && object_as<InstanceObject>(self) && site) {
    std::string cls = name.substr(0, name.size() - 9);
    if (registry_.find(cls)) {
      std::optional<Value> built = apply_named_rule(cls, std::nullopt, args, site);
      if (built && built->is_object() && built->as_object())
        for (const auto& [attr, v] : built->as_object()->attributes) set_attribute(self, attr, v, site->loc);
      return Value::none();
    }
    // a library module no rule builds (`class Model(nn.Transformer)`): what
    // its constructor requires (nhead dividing d_model ...) is not checked
    if (unbuilt_library_module(*object_as<InstanceObject>(self))) {
      note_no_rule(site, cls);
      return Value::none();
    }
  }
  // the submodules that constructor made (`self.encoder`) and the library
  // class's own methods, called on the project's instance: no rule checks
  // them, and the runtime has none either (tester8/01)
  if (const auto* inst = object_as<InstanceObject>(self);
      inst && unbuilt_library_module(*inst) && starts_with(name, inst->cls->library_base + ".") &&
      !nn_module_method(last_component(name))) {
    note_no_rule(site, name);
    return Value::unknown();
  }
  Args a(args);
  std::string m = last_component(name);
  auto arg0 = [&]() -> const Value* { return a.positional.empty() ? nullptr : &a.positional.front()->value; };
  const Expr* receiver_expr = receiver ? receiver->expr : nullptr;

  // nn.Conv2d._conv_forward(x, w, b) of a subclass (weight standardisation):
  // F.conv2d with the module's hyperparameters, which no rule reads here
  if (m == "_conv_forward") {
    note_no_rule(site, name);
    return Value::unknown();
  }
  // a checkpoint's tensors against the model's parameters: no rule compares
  // them (PyTorch's "size mismatch for 0.weight"), so it is said
  if (m == "load_state_dict" && (submodules_of(self) || object_as<InstanceObject>(self))) {
    note_no_rule(site, "torch.nn.Module.load_state_dict");
    return Value::unknown();
  }
  // model.modules(), children(), named_children(), named_modules(): the
  // module objects themselves, so that surgery through the loop variable
  // (`for m in net.modules(): m.fc = ...`) reaches them
  if ((m == "modules" || m == "children" || m == "named_children" || m == "named_modules") && args.empty() &&
      submodules_of(self)) {
    bool named = m.rfind("named_", 0) == 0;
    std::vector<std::pair<std::string, Value>> found;
    if (m == "children" || m == "named_children") {
      found = *submodules_of(self);
    } else if (!walk_modules(self, "", found, 0)) {
      return Value::unknown();
    }
    std::vector<Value> items;
    for (auto& [path, module] : found)
      items.push_back(named ? Value::tuple({Value::string(path), module}) : module);
    return Value::list(std::move(items));
  }

  if (starts_with(name, "Tensor.")) {
    const Shape& s = self.shape();
    if (m == "size") {
      const Value* d = a.get(0, "dim");
      if (!d) return s.rank_known() ? Value::size_of(s) : Value::unknown_length(SequenceKind::Size, Value::unknown());
      if (!d->is_int() || !d->as_int().constant_value()) return fresh_int("size");
      int64_t i = *d->as_int().constant_value();
      if (!s.rank_known()) {
        if (auto known = s.from_end(i)) return Value::integer(*known);
        return size_of_unknown(receiver_expr, i);
      }
      int64_t r = static_cast<int64_t>(s.rank());
      int64_t k = i < 0 ? i + r : i;
      if (k < 0 || k >= r) return Value::unknown();  // IndexError in Python
      return Value::integer(s[static_cast<std::size_t>(k)]);
    }
    if (m == "dim" || m == "ndimension") return s.rank_known() ? Value::integer(static_cast<int64_t>(s.rank())) : fresh_int("dim");
    if (m == "numel" || m == "nelement") return s.rank_known() ? Value::integer(s.numel()) : fresh_int("numel");
    if (m == "item") return Value::unknown();
    if (m == "tolist") return Value::unknown();
    if (m == "__len__") return s.rank_known() && s.rank() > 0 ? Value::integer(s[0]) : Value::unknown();
    if (m == "backward") return Value::none();
    // x.type(dtype) converts (same shape); x.type() names the type (a string)
    if (m == "type" && (!a.positional.empty() || a.kw("dtype"))) return Value::tensor(s, false);
    // an op without a rule: a tensor of unknown shape, unless the method is one
    // of the few that give something else
    if (non_tensor_methods().count(m)) return Value::unknown();
    return Value::tensor(Shape::unknown(), false);
  }
  if (m == "__init__") return Value::none();  // super().__init__(...) of a library base
  bool module_like = starts_with(name, "torch.nn.") || object_as<InstanceObject>(self) != nullptr;
  if (module_like) {
    if (m == "apply" && a.positional.size() == 1) {
      // `model.apply(fn)`: fn on every submodule, children first, so what it
      // sets on them is seen (a submodule the analysis does not know is
      // unknown already: whatever fn does to it is not assumed)
      const Value fn = a.positional[0]->value;
      std::vector<Value> modules;
      std::set<const ObjectValue*> seen;
      std::function<void(const Value&, int)> post_order = [&](const Value& module, int depth) {
        if (depth > 32 || !module.is_object() || !seen.insert(module.as_object().get()).second) return;
        std::optional<std::vector<std::pair<std::string, Value>>> children = submodules_of(module);
        if (children) {
          for (const auto& [child_name, child] : *children) post_order(child, depth + 1);
        } else if (const auto* inst = object_as<InstanceObject>(module)) {
          for (const auto& [attr, held] : inst->attributes)
            if (is_module_value(held)) post_order(held, depth + 1);
        }
        modules.push_back(module);
      };
      post_order(self, 0);
      for (const Value& each : modules)
        call_value(fn, a.positional[0]->expr, {ArgValue{Argument::Type::Positional, {}, each, nullptr, {}}}, site);
      memo_.clear();
      return self;
    }
    if (returns_self_methods().count(m)) return self;
    if (m == "zero_grad") return Value::none();
    // a hook may change the module's input or output: its calls are not followed
    if ((m == "register_forward_hook" || m == "register_forward_pre_hook") && self.is_object() && self.as_object()) {
      write_object_attribute(self.as_object(), kForwardHooksAttr, Value::boolean(Pred(true)));
      memo_.clear();
      return Value::unknown();
    }
    if ((m == "register_buffer" || m == "register_parameter" || m == "add_module" || m == "register_module") &&
        a.positional.size() >= 2 && a.positional[0]->value.is_str() && a.positional[0]->value.as_str()) {
      set_attribute(self, *a.positional[0]->value.as_str(), a.positional[1]->value, site->loc);
      return Value::none();
    }
    // self.__setattr__('level_%d' % i, m) / self.__getattr__(name): setattr and getattr
    if ((m == "__setattr__" || m == "__getattr__") && !a.positional.empty() && a.positional[0]->value.is_str()) {
      const std::optional<std::string>& attr = a.positional[0]->value.as_str();
      if (m == "__getattr__") return attr ? get_attribute(self, *attr, receiver_expr, site) : Value::unknown();
      forget_attribute_hints(self);
      if (attr && a.positional.size() == 2) set_attribute(self, *attr, a.positional[1]->value, site->loc);
      return Value::none();
    }
    if (auto c = shared_as<ContainerModule>(self)) {
      // a loop of unknown trip count around the append: its passes stand for
      // any number of children (kept as samples of what they are)
      if ((m == "append" || m == "add_module" || m == "extend" || m == "insert") && fixpoint_loops_ > c->fixpoint_loops)
        c->children_known = false;
      if ((m == "append" || m == "add_module") && arg0()) {
        c->children.push_back(a.positional.back()->value);
        return self;
      }
      if (m == "extend" && arg0()) {
        auto items = known_items(*arg0(), 4096);
        if (items) c->children.insert(c->children.end(), items->begin(), items->end());
        else c->children_known = false;
        return self;
      }
      if (m == "insert" && a.positional.size() == 2) {
        auto i = a.positional[0]->value.is_int() ? a.positional[0]->value.as_int().constant_value() : std::nullopt;
        if (i && *i >= 0 && static_cast<std::size_t>(*i) <= c->children.size()) {
          c->children.insert(c->children.begin() + *i, a.positional[1]->value);
          if (static_cast<std::size_t>(*i) <= c->child_exprs.size())
            c->child_exprs.insert(c->child_exprs.begin() + *i, a.positional[1]->expr);
        } else {
          c->children_known = false;
        }
        memo_.clear();  // a call analysed with the old layers no longer answers
        return Value::none();
      }
      if (m == "pop") {  // seq.pop(i), layers.pop(i): the child leaves the container
        memo_.clear();
        auto i = arg0() && arg0()->is_int() ? arg0()->as_int().constant_value() : std::nullopt;
        auto n = static_cast<int64_t>(c->children.size());
        if (i && *i < 0) *i += n;
        if (c->children_known && i && *i >= 0 && *i < n) {
          Value child = c->children[static_cast<std::size_t>(*i)];
          c->children.erase(c->children.begin() + *i);
          if (static_cast<std::size_t>(*i) < c->child_exprs.size()) c->child_exprs.erase(c->child_exprs.begin() + *i);
          return child;
        }
        c->children_known = false;
        return Value::unknown();
      }
    }
    if (m == "forward" && object_as<ContainerModule>(self)) return call_value(self, nullptr, args, site);
    return Value::unknown();
  }
  if (starts_with(name, "list.")) {
    // `feats.append(feats.pop(0))`: the arguments changed the list after the
    // receiver was read, and the name now holds the changed list
    auto changed = [&](const Value& now) {
      return now.is_sequence() && (now.items() != self.items() || now.element() != self.element());
    };
    if (const auto* n = receiver_target ? dyn_cast<Name>(receiver_target) : nullptr) {
      if (Binding* b = find_binding(n->id); b && changed(b->value)) self = b->value;
    } else if (receiver_target && isa<Attribute>(receiver_target) && !args.empty()) {
      Value again = eval(cast<Attribute>(receiver_target));
      if (changed(again)) self = again;
    }
    // a copy is another list: changing it changes neither the original nor its aliases
    if (m == "copy") return self.items() ? Value::list(*self.items()) : after_unseen_change(self);
    std::optional<Value> updated;
    if (m == "append" && a.positional.size() == 1) {
      if (self.items()) {
        std::vector<Value> items = *self.items();
        items.push_back(a.positional[0]->value);
        updated = Value::list(std::move(items));
      } else {
        updated = Value::unknown_length(SequenceKind::List, Value::unknown());
      }
    } else if (m == "extend" && a.positional.size() == 1) {
      auto more = known_items(a.positional[0]->value, 4096);
      if (self.items() && more) {
        std::vector<Value> items = *self.items();
        items.insert(items.end(), more->begin(), more->end());
        updated = Value::list(std::move(items));
      } else {
        updated = Value::unknown_length(SequenceKind::List, Value::unknown());
      }
    } else if (m == "insert" && a.positional.size() == 2 && self.items() && a.positional[0]->value.is_int() &&
               a.positional[0]->value.as_int().constant_value()) {
      // `skips.insert(0, x)`: Python clamps the index into [0, len]
      auto n = static_cast<int64_t>(self.items()->size());
      int64_t i = *a.positional[0]->value.as_int().constant_value();
      if (i < 0) i = std::max<int64_t>(0, i + n);
      i = std::min(i, n);
      std::vector<Value> items = *self.items();
      items.insert(items.begin() + i, a.positional[1]->value);
      updated = Value::list(std::move(items));
    } else if (m == "reverse" && a.positional.empty() && self.items()) {
      updated = Value::list(std::vector<Value>(self.items()->rbegin(), self.items()->rend()));
    } else if (m == "clear" && a.positional.empty()) {
      updated = Value::list({});
    } else if (m == "pop" && a.positional.size() <= 1 && self.items()) {
      // `skips.pop()`, `queue.pop(0)` of a list the analysis lists: that item
      std::optional<int64_t> i = arg0() ? (arg0()->is_int() ? arg0()->as_int().constant_value() : std::nullopt)
                                        : std::optional<int64_t>(-1);
      auto n = static_cast<int64_t>(self.items()->size());
      if (i && *i < 0) *i += n;
      if (i && *i >= 0 && *i < n) {
        std::vector<Value> items = *self.items();
        Value popped = items[static_cast<std::size_t>(*i)];
        items.erase(items.begin() + *i);
        assign_in_place(receiver_target, self, Value::list(std::move(items)), site->loc);
        return popped;
      }
    }
    if (!updated && (m == "insert" || m == "pop" || m == "remove" || m == "clear" || m == "sort" || m == "reverse"))
      updated = Value::unknown_length(SequenceKind::List, any_element(self, "item"));
    // `dims.__setitem__(0, 6)`, `dims.__iadd__(...)`: any item may have changed
    if (!updated && (m == "__setitem__" || m == "__delitem__" || m == "__iadd__" || m == "__imul__"))
      updated = after_unseen_change(self);
    // the name holding the list gets the new list, other holders of it lose what they knew
    if (updated) assign_in_place(receiver_target, self, *updated, site->loc);
    // an item not known: sizes of its own (another pop is another item)
    if (m == "pop") return some_item(any_element(self, "item"));
    return Value::none();
  }
  if (starts_with(name, "tuple.") || starts_with(name, "torch.Size.")) {
    if (m == "numel" && self.items()) {
      try {
        Dim p(1);
        for (const Value& v : *self.items()) {
          if (!v.is_int()) return Value::unknown();
          p = p * v.as_int();
        }
        return Value::integer(p);
      } catch (const std::exception&) {
        return Value::unknown();
      }
    }
    return Value::unknown();
  }
  if (starts_with(name, "str.")) {
    if (m == "split" || m == "splitlines") return Value::unknown_length(SequenceKind::List, Value::string());
    if (m == "startswith" || m == "endswith" || m == "isdigit" || m == "find" || m == "count" || m == "index")
      return Value::unknown();
    return Value::string();
  }
  if (auto dict = shared_as<DictObject>(self)) {
    if (m == "get" && arg0()) {
      if (auto k = dict_key(*arg0())) {
        if (const Value* v = dict->find(*k)) return *v;
        if (dict->complete) return a.positional.size() > 1 ? a.positional[1]->value : Value::none();
      }
      return Value::unknown();
    }
    if ((m == "items" || m == "keys" || m == "values") && dict->complete) {
      std::vector<Value> out;
      for (const auto& [k, v] : dict->entries) {
        Value key = k.rfind("s:", 0) == 0 ? Value::string(k.substr(2)) : Value::integer(static_cast<int64_t>(std::stoll(k.substr(2))));
        if (m == "items") out.push_back(Value::tuple({key, v}));
        else out.push_back(m == "keys" ? key : v);
      }
      return Value::list(std::move(out));
    }
    if (m == "update") {
      memo_.clear();  // calls memoised with the dict read its old items
      if (arg0()) {
        if (const auto* other = object_as<DictObject>(*arg0())) {
          for (const auto& [k, v] : other->entries) dict->set(k, v);
        } else {
          dict->complete = false;
        }
      }
      for (const ArgValue& x : args)
        if (x.type == Argument::Type::Keyword) dict->set("s:" + x.name, x.value);
      return Value::none();
    }
    if (m == "copy") {
      auto copy = std::make_shared<DictObject>(*dict);
      return Value::object(copy);
    }
    if (m == "setdefault" && arg0()) {
      if (auto k = dict_key(*arg0())) {
        if (const Value* v = dict->find(*k)) return *v;
        Value v = a.positional.size() > 1 ? a.positional[1]->value : Value::none();
        dict->set(*k, v);
        return v;
      }
    }
    return Value::unknown();
  }
  if (auto parser = shared_as<ArgParserObject>(self)) return argparse_method(parser, m, args, site);  // interp_argparse.cpp
  // a method of a library object the analysis does not model (an optimizer's, a file's ...)
  if (self.cause()) return Value::unknown().with_cause(self.cause());
  if (self.is_object() && self.as_object() && site)
    note_unknown_cause(site, "which the analysis does not model (" + name + ")", name + " is not modelled",
                       UnknownCause::Kind::Library);
  return Value::unknown();
}

Value Interpreter::torchscript_copy(const Value& v) {
  if (const auto* fn = object_as<FunctionObject>(v)) {
    auto copy = std::make_shared<FunctionObject>(*fn);
    copy->torchscript = true;
    return Value::object(copy);
  }
  if (const auto* instance = object_as<InstanceObject>(v)) {
    auto copy = std::make_shared<InstanceObject>(*instance);
    copy->torchscript = true;
    return Value::object(copy);
  }
  if (const auto* bound = object_as<BoundMethod>(v)) {
    auto copy = std::make_shared<BoundMethod>(*bound);
    copy->function = std::make_shared<FunctionObject>(*bound->function);
    copy->function->torchscript = true;
    return Value::object(copy);
  }
  return v;
}

Value Interpreter::copy_value(const Value& v, bool deep, std::map<const ObjectValue*, Value>& copied, int depth) {
  if (depth > 64) return Value::unknown();
  auto inner = [&](const Value& x) { return deep ? copy_value(x, true, copied, depth + 1) : x; };
  if (v.is_sequence()) {
    if (!deep) return v;  // lists and tuples are values here: a copy is the same value
    if (v.items()) {
      std::vector<Value> items;
      for (const Value& item : *v.items()) items.push_back(inner(item));
      return Value::sequence(v.sequence_kind(), std::move(items));
    }
    if (v.element()) return Value::unknown_length(v.sequence_kind(), inner(*v.element()), v.uniform_items());
    return v;
  }
  if (!v.is_object() || !v.as_object()) return v;
  const ObjectValue* obj = v.as_object().get();
  if (auto hit = copied.find(obj); hit != copied.end()) return hit->second;
  std::shared_ptr<ObjectValue> out;
  if (const auto* bound = object_as<BoundMethod>(v)) {
    // `self.act = self.scale` in the copied object: bound to the copy
    if (!deep || !bound->self.is_object()) return v;
    auto hit = copied.find(bound->self.as_object().get());
    if (hit == copied.end()) return v;
    auto copy = std::make_shared<BoundMethod>(*bound);
    copy->self = hit->second;
    return Value::object(copy);
  }
  if (const auto* instance = object_as<InstanceObject>(v)) {
    // the class's own __deepcopy__ / __copy__ decides: not followed (it may
    // return the object itself, so what is set on the copy may be set on it)
    if (instance->cls->lookup(deep ? "__deepcopy__" : "__copy__")) {
      forget_object(v);
      return Value::unknown();
    }
    // copy.copy of an nn.Module shares its _modules, _parameters and
    // _buffers dicts but not its other attributes: not modelled, and what
    // is set through the copy may be set on the original
    if (!deep && instance->cls->is_nn_module) {
      forget_object(v);
      return Value::unknown();
    }
    auto copy = std::make_shared<InstanceObject>(*instance);
    copy->version = 0;
    copy->born = ++object_clock_;
    out = copy;
  } else if (const auto* dict = object_as<DictObject>(v)) {
    if (!deep && dict->is_module_dict()) return v;
    auto copy = std::make_shared<DictObject>(*dict);
    for (auto& [key, value] : copy->entries) value = inner(value);
    out = copy;
  } else if (const auto* container = object_as<ContainerModule>(v)) {
    if (!deep) return v;
    auto copy = std::make_shared<ContainerModule>(*container);
    for (Value& child : copy->children) child = inner(child);
    out = copy;
  } else if (typeid(*obj) == typeid(ObjectValue)) {
    // a library module made by a rule (nn.Linear), a Namespace: its state is
    // its attributes (copy.copy of a module: as of a project module)
    if (!deep && obj->class_name.rfind("torch.nn.", 0) == 0) {
      forget_object(v);
      return Value::unknown();
    }
    out = std::make_shared<ObjectValue>(*obj);
  } else {
    return v;  // functions, classes, library names, modules, parsers, loaders: shared
  }
  Value result = Value::object(out);
  copied.emplace(obj, result);
  if (deep && !object_as<DictObject>(v) && !object_as<ContainerModule>(v))
    for (auto& [name, value] : out->attributes) value = inner(value);
  return result;
}

// A project subclass of a library module that no rule builds: its
// constructor, the submodules it makes and its forward are not followed.
// nn.Module itself and the containers are modelled apart.
bool Interpreter::unbuilt_library_module(const InstanceObject& inst) const {
  const std::string& base = inst.cls->library_base;
  if (!inst.cls->is_nn_module || base.empty() || !starts_with(base, "torch.nn.")) return false;
  static const std::set<std::string> modelled = {"torch.nn.Module", "torch.nn.Sequential", "torch.nn.ModuleList",
                                                 "torch.nn.ModuleDict", "torch.nn.ParameterList",
                                                 "torch.nn.ParameterDict"};
  return !modelled.count(base) && !registry_.find(base);
}

bool list_method_reads_only(const std::string& method) {
  static const std::set<std::string> names = {"copy", "count", "index", "__len__", "__getitem__", "__contains__",
                                              "__iter__", "__reversed__", "__repr__", "__eq__"};
  return names.count(method) > 0;
}

bool nn_module_method(const std::string& attr) {
  static const std::set<std::string> names = {
      "parameters", "named_parameters", "buffers", "named_buffers", "children", "named_children", "modules",
      "named_modules", "to", "to_empty", "cuda", "cpu", "xpu", "ipu", "train", "eval", "apply", "state_dict",
      "load_state_dict", "requires_grad_", "zero_grad", "half", "float", "double", "bfloat16", "type",
      "register_buffer", "register_parameter", "add_module", "register_module", "get_submodule", "get_parameter",
      "get_buffer", "get_extra_state", "set_extra_state", "training", "forward", "extra_repr", "share_memory",
      "register_forward_hook", "register_forward_pre_hook", "register_backward_hook",
      "register_full_backward_hook", "register_full_backward_pre_hook", "register_state_dict_pre_hook",
      "register_load_state_dict_post_hook", "dump_patches", "call_super_init"};
  return names.count(attr) > 0 || attr.rfind("__", 0) == 0 || attr.rfind("_", 0) == 0;
}

bool is_module_value(const Value& v) {
  if (const auto* inst = object_as<InstanceObject>(v)) return inst->cls->is_nn_module;
  if (object_as<ContainerModule>(v) || object_as<ModuleWrapper>(v)) return true;
  if (const auto* d = object_as<DictObject>(v)) return d->is_module_dict();
  return v.is_object() && v.as_object() && typeid(*v.as_object()) == typeid(ObjectValue) &&
         v.as_object()->class_name.rfind("torch.nn.", 0) == 0;
}

std::optional<std::vector<std::pair<std::string, Value>>> Interpreter::submodules_of(const Value& v) const {
  using Children = std::vector<std::pair<std::string, Value>>;
  if (!is_module_value(v)) return std::nullopt;
  Children out;
  if (const auto* inst = object_as<InstanceObject>(v)) {
    // in registration order (when each name was first set), each module
    // once (PyTorch skips one registered again under another name)
    std::vector<std::tuple<uint64_t, std::string, Value>> set;
    for (const auto& [name, value] : inst->attributes) {
      if (value.is_unknown() && !value.int_view()) return std::nullopt;  // may be a module
      if (!is_module_value(value)) continue;
      auto first = inst->first_set.find(name);
      set.emplace_back(first == inst->first_set.end() ? UINT64_MAX : first->second, name, value);
    }
    std::stable_sort(set.begin(), set.end(),
                     [](const auto& a, const auto& b) { return std::get<0>(a) < std::get<0>(b); });
    std::set<const ObjectValue*> seen;
    for (auto& [at, name, value] : set)
      if (seen.insert(value.as_object().get()).second) out.emplace_back(name, value);
    return out;
  }
  if (const auto* c = object_as<ContainerModule>(v)) {
    if (!c->children_known) return std::nullopt;
    std::set<const ObjectValue*> seen;
    for (std::size_t i = 0; i < c->children.size(); ++i) {
      const Value& child = c->children[i];
      if (!child.is_object() || seen.insert(child.as_object().get()).second) out.emplace_back(std::to_string(i), child);
    }
    return out;
  }
  if (const auto* d = object_as<DictObject>(v)) {
    if (!d->complete) return std::nullopt;
    for (const auto& [key, value] : d->entries) {
      if (key.rfind("s:", 0) != 0) return std::nullopt;
      out.emplace_back(key.substr(2), value);
    }
    return out;
  }
  if (const auto* w = object_as<ModuleWrapper>(v)) {
    out.emplace_back("module", w->module());
    return out;
  }
  return out;  // a library layer
}

bool Interpreter::walk_modules(const Value& v, const std::string& prefix,
                               std::vector<std::pair<std::string, Value>>& out, int depth) const {
  if (depth > 32) return false;
  for (const auto& [seen, module] : out)
    if (module.as_object() == v.as_object()) return true;  // modules() yields each module once
  out.emplace_back(prefix, v);
  std::optional<std::vector<std::pair<std::string, Value>>> children = submodules_of(v);
  if (!children) return false;
  for (const auto& [name, child] : *children)
    if (!walk_modules(child, prefix.empty() ? name : prefix + "." + name, out, depth + 1)) return false;
  return true;
}

void Interpreter::forget_object(const Value& v) {
  if (auto inst = shared_as<InstanceObject>(v)) {
    std::vector<std::string> names;
    for (const auto& [attr, value] : inst->attributes) names.push_back(attr);
    for (const std::string& attr : names) write_object_attribute(inst, attr, Value::unknown());
  } else if (v.is_object() && v.as_object()) {
    for (auto& [attr, value] : v.as_object()->attributes) value = Value::unknown();
  }
  memo_.clear();
}

}  // namespace gshape::gradual::interp
