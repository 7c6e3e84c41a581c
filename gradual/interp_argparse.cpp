// A launch's command line (`gshape check SCRIPT -- ARGS`) parsed as argparse
// would parse it with what the parser declared: options (exact or an
// unambiguous prefix of a long one, `--opt value` or `--opt=value`), flags
// (store_true/false/const, count), nargs, positionals, `type=int/float/str`
// and `choices`. A command line argparse rejects is an error at the
// parse_args call. Each int the Namespace holds is a symbol named after its
// option, held to its value by a fact at the add_argument call, so that a
// requirement it breaks is reported with the argument that caused it (the
// fact is in the refutation's core: docs/hyperparameters.md).
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "frontend/json_reader.h"

#include "gradual/interp.h"

namespace gshape::gradual::interp {

using namespace gshape::ir;

namespace {

using Argument = ArgParserObject::Argument;

// Python's int() on a command-line word: optional sign, digits, underscores
// between digits, surrounding blanks.
std::optional<int64_t> python_int(const std::string& word) {
  std::string s;
  std::size_t b = 0, e = word.size();
  while (b < e && std::isspace(static_cast<unsigned char>(word[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(word[e - 1]))) --e;
  std::string t = word.substr(b, e - b);
  std::size_t i = 0;
  if (i < t.size() && (t[i] == '+' || t[i] == '-')) s += t[i++];
  bool digit_before = false;
  for (; i < t.size(); ++i) {
    if (std::isdigit(static_cast<unsigned char>(t[i]))) {
      s += t[i];
      digit_before = true;
    } else if (t[i] == '_' && digit_before && i + 1 < t.size() && std::isdigit(static_cast<unsigned char>(t[i + 1]))) {
      continue;
    } else {
      return std::nullopt;
    }
  }
  if (!digit_before || s.size() > 18) return std::nullopt;
  return std::stoll(s);
}

std::optional<double> python_float(const std::string& word) {
  try {
    std::size_t used = 0;
    double v = std::stod(word, &used);
    if (used != word.size()) return std::nullopt;
    return v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool looks_like_option(const std::string& w) {
  if (w.size() < 2 || w[0] != '-') return false;
  return !python_float(w);  // a negative number is a value
}

// As argparse names an argument in its errors: `--hidden/-H`, or the dest.
std::string display(const Argument& a) {
  if (a.flags.empty()) return a.dest;
  std::string out;
  for (const std::string& f : a.flags) out += (out.empty() ? "" : "/") + f;
  return out;
}

// A short name for symbols: the first long option, else the first flag.
std::string short_name(const Argument& a) {
  for (const std::string& f : a.flags)
    if (f.rfind("--", 0) == 0) return f;
  return a.flags.empty() ? a.dest : a.flags.front();
}

std::string python_repr(const Value& v) {
  if (v.is_str() && v.as_str()) return "'" + *v.as_str() + "'";
  if (v.is_int() && v.as_int().constant_value()) return std::to_string(*v.as_int().constant_value());
  return v.str();
}

}  // namespace

Value Interpreter::parse_command_line(ArgParserObject& parser, const Node* site, bool known_only) {
  if (options_.symbolic_args) return symbolic_arguments(parser, site);
  const std::vector<std::string>& words = *options_.launch_args;
  auto ns = std::make_shared<ObjectValue>("argparse.Namespace");
  for (const auto& [k, v] : parser.defaults) ns->attributes[k] = v;
  note_created(ns.get(), site->loc);
  bool failed = false;
  auto error = [&](const std::string& message) {
    if (!failed) {
      launch_errors_.push_back({Severity::Error, site->loc, {},
                                "argparse rejects this command line: " + message + " (the script exits with status 2)",
                                {}, {}});
    }
    failed = true;
  };
  std::map<std::string, std::string> given;  // dest → the words that set it
  // a value word converted by the argument's type and checked against its choices
  auto convert = [&](const Argument& a, const std::string& word) -> Value {
    Value v = Value::string(word);
    if (a.type == "int") {
      std::optional<int64_t> i = python_int(word);
      if (!i) {
        error("argument " + display(a) + ": invalid int value: '" + word + "'");
        return Value::unknown();
      }
      v = Value::integer(Dim(*i));
    } else if (a.type == "float") {
      std::optional<double> f = python_float(word);
      if (!f) {
        error("argument " + display(a) + ": invalid float value: '" + word + "'");
        return Value::unknown();
      }
      v = Value::floating(*f);
    } else if (a.type == "?") {
      return Value::unknown();  // a converter the analysis does not know
    }
    if (!a.choices.empty() && a.choices_known) {
      bool found = false;
      for (const Value& c : a.choices) found = found || same_value(c, v);
      if (!found) {
        std::string list;
        for (const Value& c : a.choices) list += (list.empty() ? "" : ", ") + python_repr(c);
        error("argument " + display(a) + ": invalid choice: " + python_repr(v) + " (choose from " + list + ")");
      }
    }
    return v;
  };
  auto find_option = [&](const std::string& name) -> const Argument* {
    for (const Argument& a : parser.arguments)
      for (const std::string& f : a.flags)
        if (f == name) return &a;
    if (name.rfind("--", 0) != 0) return nullptr;
    const Argument* match = nullptr;
    for (const Argument& a : parser.arguments) {
      for (const std::string& f : a.flags) {
        if (f.rfind("--", 0) == 0 && f.rfind(name, 0) == 0) {
          if (match && match != &a) return nullptr;  // ambiguous
          match = &a;
        }
      }
    }
    return match;
  };
  std::vector<std::string> positional_words;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "--") {
      positional_words.insert(positional_words.end(), words.begin() + static_cast<std::ptrdiff_t>(i) + 1, words.end());
      break;
    }
    if (!looks_like_option(w)) {
      positional_words.push_back(w);
      continue;
    }
    std::string name = w;
    std::optional<std::string> inline_value;
    if (std::size_t eq = w.find('='); eq != std::string::npos) {
      name = w.substr(0, eq);
      inline_value = w.substr(eq + 1);
    }
    const Argument* a = find_option(name);
    if (!a) {
      if (!known_only) error("unrecognized arguments: " + w);
      continue;
    }
    std::string& text = given[a->dest];
    text = w;
    if (a->action == "store_true" || a->action == "store_false") {
      ns->attributes[a->dest] = Value::boolean(Pred(a->action == "store_true"));
      continue;
    }
    if (a->action == "store_const") {
      ns->attributes[a->dest] = a->constant;
      continue;
    }
    if (a->action == "count") {
      const Value* before = ns->attribute(a->dest);
      int64_t n = before && before->is_int() && before->as_int().constant_value() ? *before->as_int().constant_value() : 0;
      ns->attributes[a->dest] = Value::integer(Dim(n + 1));
      continue;
    }
    // values: inline, or the words that follow up to the next option
    std::vector<std::string> values;
    if (inline_value) values.push_back(*inline_value);
    std::size_t want = 1;
    bool open = false;  // `*`, `+`: as many as follow
    if (a->nargs == "?" || a->nargs == "*" || a->nargs == "+") open = true;
    else if (!a->nargs.empty()) want = a->nargs == "?unknown" ? 1 : static_cast<std::size_t>(std::max(0, std::atoi(a->nargs.c_str())));
    while (i + 1 < words.size() && !looks_like_option(words[i + 1]) && (open || values.size() < want)) {
      if (a->nargs == "?" && !values.empty()) break;
      values.push_back(words[++i]);
      text += " " + words[i];
    }
    if (!open && values.size() < want) {
      error("argument " + display(*a) + ": expected " + (want == 1 ? std::string("one argument") : std::to_string(want) + " arguments"));
      continue;
    }
    if (a->nargs == "+" && values.empty()) {
      error("argument " + display(*a) + ": expected at least one argument");
      continue;
    }
    if (a->nargs == "?" && values.empty()) {
      ns->attributes[a->dest] = a->constant;
      continue;
    }
    std::vector<Value> converted;
    for (const std::string& v : values) converted.push_back(convert(*a, v));
    Value v = a->nargs.empty() ? converted.front() : Value::list(converted);
    if (a->action == "append") {
      const Value* before = ns->attribute(a->dest);
      std::vector<Value> items = before && before->is_sequence() && before->items() ? *before->items() : std::vector<Value>{};
      items.push_back(v);
      v = Value::list(std::move(items));
    }
    ns->attributes[a->dest] = v;
  }
  // positionals, in the order they were declared
  std::size_t next = 0;
  for (const Argument& a : parser.arguments) {
    if (!a.flags.empty()) continue;
    if (a.nargs == "*" || a.nargs == "+" || a.nargs == "?") {
      std::vector<Value> converted;
      for (; next < positional_words.size(); ++next) {
        converted.push_back(convert(a, positional_words[next]));
        if (a.nargs == "?") {
          ++next;
          break;
        }
      }
      if (a.nargs == "+" && converted.empty()) error("the following arguments are required: " + a.dest);
      if (a.nargs == "?") {
        if (!converted.empty()) ns->attributes[a.dest] = converted.front();
      } else {
        ns->attributes[a.dest] = Value::list(std::move(converted));
      }
      continue;
    }
    if (next >= positional_words.size()) {
      error("the following arguments are required: " + a.dest);
      continue;
    }
    given[a.dest] = positional_words[next];
    ns->attributes[a.dest] = convert(a, positional_words[next++]);
  }
  if (next < positional_words.size() && !known_only) error("unrecognized arguments: " + positional_words[next]);

  // each int: a symbol named after its option, held to its value by a fact
  for (const Argument& a : parser.arguments) {
    auto it = ns->attributes.find(a.dest);
    if (it == ns->attributes.end() || !it->second.is_int()) continue;
    std::optional<int64_t> value = it->second.as_int().constant_value();
    if (!value) continue;
    // named with its value, so that messages read `num_heads --heads=6`
    Dim s = Dim::symbol(short_name(a) + "=" + std::to_string(*value), false);
    auto g = given.find(a.dest);
    std::string why = g != given.end() ? "from the command line: " + g->second
                                       : short_name(a) + " = " + std::to_string(*value) + ", its default";
    add_fact(eq(s, Dim(*value)), a.loc, why);
    launch_values_.push_back({s, *value});
    it->second = Value::integer(s);
  }
  return Value::object(ns);
}

Value Interpreter::symbolic_arguments(ArgParserObject& parser, const Node* site) {
  auto ns = std::make_shared<ObjectValue>("argparse.Namespace");
  for (const auto& [k, v] : parser.defaults) ns->attributes[k] = v;
  note_created(ns.get(), site->loc);
  for (const Argument& a : parser.arguments) {
    if (a.action != "store" || !a.nargs.empty()) continue;
    const Value* def = ns->attribute(a.dest);
    bool is_int = a.type == "int" || (a.type.empty() && def && def->is_int());
    if (!is_int) continue;
    Dim s = Dim::symbol(a.dest, false);
    if (!a.choices.empty() && a.choices_known) {
      std::vector<Pred> options;
      for (const Value& c : a.choices)
        if (c.is_int()) options.push_back(eq(s, c.as_int()));
      std::string list;
      for (const Value& c : a.choices) list += (list.empty() ? "" : ", ") + c.str();
      add_fact(any_of(options), a.loc, short_name(a) + " is one of " + list);
    }
    ns->attributes[a.dest] = Value::integer(s);
    argument_symbols_.push_back({s, a.dest, a.flags.empty() ? "" : short_name(a), a.loc});
  }
  return Value::object(ns);
}

namespace {

Value from_json(const Json& j) {
  switch (j.type) {
    case Json::Type::Null: return Value::none();
    case Json::Type::Bool: return Value::boolean(Pred(j.boolean));
    case Json::Type::Number:
      if (static_cast<double>(j.integer) == j.number) return Value::integer(Dim(j.integer));
      return Value::floating(j.number);
    case Json::Type::String: return Value::string(j.string);
    case Json::Type::Array: {
      std::vector<Value> items;
      for (const Json& x : j.array) items.push_back(from_json(x));
      return Value::list(std::move(items));
    }
    case Json::Type::Object: {
      auto d = std::make_shared<DictObject>();
      for (const auto& [k, v] : j.object) d->set("s:" + k, from_json(v));
      return Value::object(d);
    }
  }
  return Value::unknown();
}

}  // namespace

std::optional<Value> Interpreter::read_launch_json(const Value& source, bool is_text, const Node* site) {
  constexpr std::uintmax_t kMaxConfigBytes = 1u << 20;  // a config, not a dataset
  std::string text, name;
  if (is_text) {
    if (!source.is_str() || !source.as_str()) return std::nullopt;
    text = *source.as_str();
    name = "the JSON text";
  } else {
    const auto* file = object_as<FileObject>(source);
    if (!file) return std::nullopt;
    std::error_code ec;
    std::uintmax_t size = std::filesystem::file_size(file->path, ec);
    if (ec || size > kMaxConfigBytes) return std::nullopt;
    std::ifstream in(file->path, std::ios::binary);
    std::ostringstream buf;
    buf << in.rdbuf();
    if (!in && !in.eof()) return std::nullopt;
    text = buf.str();
    name = file->path;
  }
  std::string error;
  std::optional<Json> doc = parse_json_text(text, error);
  if (!doc) {
    launch_errors_.push_back({Severity::Error, site->loc, {},
                              "json.load fails on " + name + " for this launch: " + error, {}, {}});
    return Value::unknown();
  }
  Value v = from_json(*doc);
  // its top-level ints: symbols held to their values by facts naming the key
  if (auto* d = object_as<DictObject>(v)) {
    for (auto& [key, value] : d->entries) {
      if (!value.is_int() || !value.as_int().constant_value()) continue;
      int64_t n = *value.as_int().constant_value();
      std::string k = key.substr(2);
      Dim s = Dim::symbol(k + "=" + std::to_string(n), false);
      add_fact(eq(s, Dim(n)), site->loc, "from " + name + ": \"" + k + "\": " + std::to_string(n));
      launch_values_.push_back({s, n});
      value = Value::integer(s);
    }
  }
  return v;
}

}  // namespace gshape::gradual::interp
