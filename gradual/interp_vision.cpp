// torchvision datasets and transforms. A dataset of fixed images (MNIST,
// CIFAR10, SVHN...) gives samples `(image, target)` whose image is known
// once its transform pipeline is: ToTensor() of MNIST's 28x28 grey images is
// a [1, 28, 28] tensor, RandomCrop(32, padding=4) keeps CIFAR10's 32x32. A
// DataLoader over such a dataset then yields [B, 1, 28, 28] batches and the
// model's obligations are decided on them. A Lambda or a project callable in
// the pipeline is analysed on the image it receives. What is not modelled (an
// unknown transform, no transform: a PIL image) leaves the image unknown.
//
// The facts used, from torchvision 0.14 (the release of torch 1.13):
// MNIST, FashionMNIST and KMNIST are 28x28 mode-"L" images, 60,000 for
// training and 10,000 for testing; CIFAR10 and CIFAR100 are 32x32 RGB,
// 50,000 and 10,000; SVHN is 32x32 RGB, 73,257 / 26,032 / 531,131 in its
// train / test / extra splits; STL10 is 96x96 RGB, 5,000 / 8,000 / 100,000
// in train / test / unlabeled; EMNIST is 28x28 grey, its length depends on
// the split; FakeData is `image_size` (C, H, W) with `size` samples;
// ImageFolder and LSUN load RGB images of any size. Resize(s) scales the shorter
// side to s and the longer to int(s * long / short).
#include <functional>
#include <map>
#include <set>

#include "gradual/interp.h"
#include "gradual/interp_args.h"

namespace gshape::gradual::interp {

using Op = TransformStep::Op;

namespace {

std::string last_component(const std::string& path) {
  std::size_t dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

bool is_module(const std::string& path, const std::string& module) {
  // torchvision.transforms.ToTensor, torchvision.transforms.transforms.ToTensor
  return path.rfind(module + ".", 0) == 0;
}

// An image as the transforms see it: channels, height, width, and whether it
// is a tensor yet (a PIL image otherwise).
struct Image {
  Dim c{0}, h{0}, w{0};
  bool tensor = false;
};

// `size` as (height, width): an int s is (s, s), a one-item sequence too.
std::optional<std::pair<Dim, Dim>> size_pair(const Value* v) {
  if (auto s = int_of(v)) return std::make_pair(*s, *s);
  if (v && v->is_sequence() && v->items()) {
    const auto& items = *v->items();
    if (items.size() == 1) {
      if (auto s = int_of(&items[0])) return std::make_pair(*s, *s);
    }
    if (items.size() == 2) {
      auto h = int_of(&items[0]), w = int_of(&items[1]);
      if (h && w) return std::make_pair(*h, *w);
    }
  }
  return std::nullopt;
}

TransformStep step(Op op, Dim a = Dim(0), Dim b = Dim(0), Dim c = Dim(0), Dim d = Dim(0)) {
  TransformStep s;
  s.op = op;
  s.a = a;
  s.b = b;
  s.c = c;
  s.d = d;
  return s;
}

// A project function or callable object used as a transform.
TransformStep callable_step(const Value& fn) {
  if (!object_as<FunctionObject>(fn) && !object_as<InstanceObject>(fn) && !object_as<BoundMethod>(fn))
    return step(Op::Unknown);
  TransformStep s = step(Op::Call);
  s.fn = fn;
  return s;
}

// The transforms that change neither the size nor the kind of the image.
const std::set<std::string>& keeping_transforms() {
  static const std::set<std::string> names = {
      "RandomHorizontalFlip", "RandomVerticalFlip", "ColorJitter", "GaussianBlur", "RandomAffine",
      "RandomPerspective", "RandomInvert", "RandomPosterize", "RandomSolarize", "RandomAdjustSharpness",
      "RandomAutocontrast", "RandomEqualize", "AutoAugment", "RandAugment", "TrivialAugmentWide", "AugMix",
      "RandomGrayscale", "ElasticTransform"};
  return names;
}

// `pil`: why a PIL image is unknown (the analysis does not model PIL).
Value image_value(const Image& img, const std::shared_ptr<const UnknownCause>& pil) {
  // a PIL image: not a tensor
  return img.tensor ? Value::tensor(Shape({img.c, img.h, img.w})) : Value::unknown().with_cause(pil);
}

// The image after the steps: a [C, H, W] tensor, or what a project callable
// (Lambda(f)) made of it, or unknown. `call` calls a Call step's function.
Value apply_steps(const std::vector<TransformStep>& steps, Image img, const std::shared_ptr<const UnknownCause>& pil,
                  const std::function<Value(const Value&, const Value&)>& call) {
  std::optional<Value> other;  // a callable's result that is not a [C, H, W] tensor
  for (const TransformStep& s : steps) {
    if (s.op == Op::Call) {
      Value r = call(s.fn, other ? *other : image_value(img, pil));
      other.reset();
      if (r.is_tensor() && r.shape().rank_known() && r.shape().rank() == 3) {
        img = Image{r.shape()[0], r.shape()[1], r.shape()[2], true};
      } else {
        other = r;
      }
      continue;
    }
    if (other) {
      if (s.op == Op::Keep) continue;
      return Value::unknown();
    }
    switch (s.op) {
      case Op::Keep: break;
      case Op::TensorKeep:
        if (!img.tensor) return Value::unknown();  // Normalize of a PIL image raises TypeError
        break;
      case Op::ToTensor:
        if (img.tensor) return Value::unknown();  // ToTensor of a tensor raises TypeError
        img.tensor = true;
        break;
      case Op::ToPIL:
        if (!img.tensor) return Value::unknown();
        img.tensor = false;
        break;
      case Op::SetSize:
        img.h = s.a;
        img.w = s.b;
        break;
      case Op::ShortSide: {
        if (img.h == img.w) {
          img.h = img.w = s.a;
          break;
        }
        Pred wide = le(img.w, img.h);  // width is the shorter side
        Dim h = Dim::ite(wide, floordiv(s.a * img.h, img.w), s.a);
        Dim w = Dim::ite(wide, s.a, floordiv(s.a * img.w, img.h));
        img.h = h;
        img.w = w;
        break;
      }
      case Op::Pad:
        img.h = img.h + s.a + s.b;
        img.w = img.w + s.c + s.d;
        break;
      case Op::SetChannels: img.c = s.a; break;
      case Op::Call:
      case Op::Unknown: return Value::unknown();
    }
  }
  return other ? *other : image_value(img, pil);
}

}  // namespace

std::optional<Value> Interpreter::call_torchvision(const std::string& path, const std::vector<ArgValue>& args,
                                                   const ir::Node* site) {
  Args a(args);
  const std::string name = last_component(path);

  if (is_module(path, "torchvision.transforms")) {
    auto t = std::make_shared<TransformObject>("torchvision.transforms." + name);
    auto one = [&](TransformStep s) {
      t->steps.push_back(s);
      note_created(t.get(), site->loc);
      return Value::object(t);
    };
    if (a.has_star) return one(step(Op::Unknown));
    if (name == "Compose" || name == "RandomApply" || name == "RandomChoice" || name == "RandomOrder") {
      const Value* list = a.get(0, "transforms");
      auto items = list ? known_items(*list, 256) : std::nullopt;
      std::vector<TransformStep> inner;
      if (!items) inner.push_back(step(Op::Unknown));
      else {
        for (const Value& item : *items) {
          const auto* tr = object_as<TransformObject>(item);
          if (!tr) {
            inner.push_back(callable_step(item));
            continue;
          }
          inner.insert(inner.end(), tr->steps.begin(), tr->steps.end());
        }
      }
      if (name == "Compose") {
        t->steps = std::move(inner);
        note_created(t.get(), site->loc);
        return Value::object(t);
      }
      // applied or not, in any order: known only when every step keeps the size and kind
      bool keeps = true;
      for (const TransformStep& s : inner) keeps = keeps && s.op == Op::Keep;
      return one(step(keeps ? Op::Keep : Op::Unknown));
    }
    if (keeping_transforms().count(name)) return one(step(Op::Keep));
    if (name == "Normalize" || name == "RandomErasing" || name == "ConvertImageDtype") return one(step(Op::TensorKeep));
    if (name == "ToTensor" || name == "PILToTensor") return one(step(Op::ToTensor));
    if (name == "ToPILImage") return one(step(Op::ToPIL));
    if (name == "RandomRotation") {
      const Value* expand = a.get(2, "expand");
      return one(step(!expand || bool_of(expand) == false ? Op::Keep : Op::Unknown));
    }
    if (name == "CenterCrop" || name == "RandomCrop" || name == "RandomResizedCrop") {
      auto size = size_pair(a.get(0, "size"));
      return one(size ? step(Op::SetSize, size->first, size->second) : step(Op::Unknown));
    }
    if (name == "Resize") {
      const Value* size = a.get(0, "size");
      // max_size caps the longer side: not modelled
      if (a.get(2, "max_size") && !a.get(2, "max_size")->is_none()) return one(step(Op::Unknown));
      if (auto s = int_of(size)) return one(step(Op::ShortSide, *s));
      if (size && size->is_sequence() && size->items() && size->items()->size() == 1) {
        if (auto s = int_of(&size->items()->front())) return one(step(Op::ShortSide, *s));
      }
      auto pair = size_pair(size);
      return one(pair ? step(Op::SetSize, pair->first, pair->second) : step(Op::Unknown));
    }
    if (name == "Pad") {
      const Value* padding = a.get(0, "padding");
      if (auto p = int_of(padding)) return one(step(Op::Pad, *p, *p, *p, *p));
      if (padding && padding->is_sequence() && padding->items()) {
        const auto& items = *padding->items();
        std::vector<Dim> p;
        for (const Value& v : items) {
          auto d = int_of(&v);
          if (!d) return one(step(Op::Unknown));
          p.push_back(*d);
        }
        if (p.size() == 2) return one(step(Op::Pad, p[1], p[1], p[0], p[0]));  // (left/right, top/bottom)
        if (p.size() == 4) return one(step(Op::Pad, p[1], p[3], p[0], p[2]));  // (left, top, right, bottom)
      }
      return one(step(Op::Unknown));
    }
    if (name == "Grayscale") {
      const Value* n = a.get(0, "num_output_channels");
      if (!n) return one(step(Op::SetChannels, Dim(1)));
      auto c = int_of(n);
      return one(c ? step(Op::SetChannels, *c) : step(Op::Unknown));
    }
    if (name == "Lambda") {
      const Value* fn = a.get(0, "lambd");
      return one(fn ? callable_step(*fn) : step(Op::Unknown));
    }
    return one(step(Op::Unknown));  // FiveCrop, an unknown transform
  }

  if (!is_module(path, "torchvision.datasets")) return std::nullopt;
  // name → (channels, height, width) of its images, and where the
  // split argument is: train=True/False or split="...".
  struct Known {
    int64_t c, h, w;
    std::vector<std::pair<std::string, int64_t>> lengths;  // split → samples ("1"/"0" for train=True/False)
    int transform_pos;                                     // positional index of `transform`
    bool split_kw;                                         // split="..." (else train=bool)
  };
  static const std::map<std::string, Known> known = {
      {"MNIST", {1, 28, 28, {{"1", 60000}, {"0", 10000}}, 2, false}},
      {"FashionMNIST", {1, 28, 28, {{"1", 60000}, {"0", 10000}}, 2, false}},
      {"KMNIST", {1, 28, 28, {{"1", 60000}, {"0", 10000}}, 2, false}},
      {"CIFAR10", {3, 32, 32, {{"1", 50000}, {"0", 10000}}, 2, false}},
      {"CIFAR100", {3, 32, 32, {{"1", 50000}, {"0", 10000}}, 2, false}},
      {"SVHN", {3, 32, 32, {{"train", 73257}, {"test", 26032}, {"extra", 531131}}, 2, true}},
      {"STL10", {3, 96, 96, {{"train", 5000}, {"test", 8000}, {"unlabeled", 100000}}, 3, true}},
      {"EMNIST", {1, 28, 28, {}, -1, false}},
  };
  Image image;
  bool varying_size = false;  // each image has its own height and width (ImageFolder)
  std::optional<Dim> length;
  const Value* transform = nullptr;
  const Value* target_transform = nullptr;
  auto it = known.find(name);
  if (it != known.end()) {
    const Known& k = it->second;
    image = Image{Dim(k.c), Dim(k.h), Dim(k.w), false};
    std::optional<std::string> split;
    if (k.split_kw) {
      const Value* s = a.get(1, "split");
      if (!s) split = k.lengths.front().first;
      else if (s->is_str() && s->as_str()) split = *s->as_str();
    } else if (!k.lengths.empty()) {
      const Value* train = a.get(1, "train");
      std::optional<bool> b = train ? bool_of(train) : std::optional<bool>(true);
      if (train && train->is_none()) b.reset();
      if (b) split = *b ? "1" : "0";
    }
    for (const auto& [s, n] : k.lengths)
      if (split && *split == s) length = Dim(n);
    transform = k.transform_pos >= 0 ? a.get(static_cast<std::size_t>(k.transform_pos), "transform") : a.kw("transform") ? &a.kw("transform")->value : nullptr;
    target_transform = k.transform_pos >= 0 ? a.get(static_cast<std::size_t>(k.transform_pos + 1), "target_transform")
                                            : a.kw("target_transform") ? &a.kw("target_transform")->value : nullptr;
  } else if (name == "FakeData") {
    const Value* size = a.get(0, "size");
    length = size ? int_of(size) : std::optional<Dim>(Dim(1000));
    const Value* shape = a.get(1, "image_size");
    std::optional<std::vector<Dim>> dims = std::vector<Dim>{Dim(3), Dim(224), Dim(224)};
    if (shape) {
      dims.reset();
      if (shape->is_sequence() && shape->items() && shape->items()->size() == 3) {
        std::vector<Dim> d;
        for (const Value& v : *shape->items())
          if (auto x = int_of(&v)) d.push_back(*x);
        if (d.size() == 3) dims = d;
      }
    }
    if (!dims) return std::nullopt;
    image = Image{(*dims)[0], (*dims)[1], (*dims)[2], false};
    transform = a.get(3, "transform");
    target_transform = a.get(4, "target_transform");
  } else if (name == "ImageFolder") {
    if (a.get(3, "loader")) return std::nullopt;  // a custom loader: any kind of image
    image = Image{Dim(3), Dim::symbol("image height"), Dim::symbol("image width"), false};
    varying_size = true;
    transform = a.get(1, "transform");
    target_transform = a.get(2, "target_transform");
  } else if (name == "LSUN") {
    image = Image{Dim(3), Dim::symbol("image height"), Dim::symbol("image width"), false};
    varying_size = true;
    transform = a.get(2, "transform");
    target_transform = a.get(3, "target_transform");
  } else {
    return std::nullopt;
  }
  if (a.has_star) return std::nullopt;

  auto ds = std::make_shared<DatasetObject>("torchvision.datasets." + name);
  Value sample_image = Value::unknown();  // a PIL image, or not known
  if (transform && !transform->is_none()) {
    std::vector<TransformStep> steps{callable_step(*transform)};
    if (const auto* tr = object_as<TransformObject>(*transform)) steps = tr->steps;
    auto call = [&](const Value& fn, const Value& arg) {
      return call_value(fn, nullptr, {ArgValue{ir::Argument::Type::Positional, {}, arg, nullptr, {}}}, site);
    };
    auto pil = std::make_shared<UnknownCause>();
    pil->kind = UnknownCause::Kind::Library;
    pil->at = site->loc;
    pil->text = "the PIL images of `" + source_text(site->loc, 30) + "` at " + std::to_string(site->loc.line) + ":" +
                std::to_string(site->loc.column) + ", which the analysis does not model";
    pil->alone = "its images are PIL images, which the analysis does not model";
    sample_image = apply_steps(steps, image, pil, call);
    // one pair of symbols stands for every image's size: known only when the
    // transform made the size the same for all (a crop, Resize((h, w)))
    bool per_image = false;
    if (varying_size && sample_image.is_tensor() && sample_image.shape().rank_known()) {
      for (const Dim& d : sample_image.shape().dims())
        for (const Dim& sym : symbols_of(d.node())) per_image = per_image || sym == image.h || sym == image.w;
    }
    if (per_image) sample_image = Value::unknown();
  }
  Value target = target_transform && !target_transform->is_none() ? Value::unknown() : fresh_int("target", false);
  ds->item = Value::tuple({sample_image, target});
  ds->size = length;
  note_created(ds.get(), site->loc);
  return Value::object(ds);
}

}  // namespace gshape::gradual::interp
