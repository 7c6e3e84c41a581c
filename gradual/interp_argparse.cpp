// A launch's command line (`gshape check SCRIPT -- ARGS`) parsed as argparse
// would parse it with what the parser declared: options (exact or an
// unambiguous prefix of a long one, `--opt value` or `--opt=value`), flags
// (store_true/false/const, count), nargs, positionals, `type=int/float/str`
// and `choices`. A command line argparse rejects is an error at the
// parse_args call. Each int the Namespace holds is a symbol named after its
// option, held to its value by a fact at the add_argument call, so that a
// requirement it breaks is reported with the argument that caused it (the
// fact is in the refutation's core: docs/hyperparameters.md).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "frontend/json_reader.h"

#include "gradual/interp.h"
#include "gradual/interp_args.h"
#include "gradual/solver.h"
#include "gradual/witness.h"
#include "gradual/yaml_config.h"

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

// As argparse names an argument in its errors: `--hidden/-H`, or the dest
// (a sub-parsers positional without one: `{train,eval}`).
std::string display(const Argument& a) {
  if (a.action == "parsers" && a.dest == "==SUPPRESS==" && a.subparsers) {
    std::string out;
    for (const auto& [names, p] : a.subparsers->commands)
      for (const std::string& n : names) out += (out.empty() ? "" : ",") + n;
    return "{" + out + "}";
  }
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

// Without a launch, which sub-command runs is not known: its dest and every
// value a sub-parser could set are unknown.
void forget_commands(const ArgParserObject& parser, ObjectValue& ns) {
  for (const Argument& x : parser.arguments) {
    if (x.action != "parsers" || !x.subparsers) continue;
    if (x.dest != "==SUPPRESS==") ns.attributes[x.dest] = Value::unknown();
    for (const auto& [names, sub] : x.subparsers->commands) {
      for (const auto& [k, v] : sub->defaults) ns.attributes[k] = Value::unknown();
      forget_commands(*sub, ns);
    }
  }
}

bool starts_with(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

void inherit_arguments(ArgParserObject& parser, const Value& parents) {
  if (!parents.is_sequence() || !parents.items()) return;
  for (const Value& p : *parents.items()) {
    const auto* parent = object_as<ArgParserObject>(p);
    if (!parent) continue;
    for (const auto& d : parent->defaults) {
      bool replaced = false;
      for (auto& [k, v] : parser.defaults) {
        if (k == d.first) {
          v = d.second;
          replaced = true;
        }
      }
      if (!replaced) parser.defaults.push_back(d);
    }
    for (const auto& arg : parent->arguments) parser.arguments.push_back(arg);
    for (const auto& g : parent->exclusive_groups) parser.exclusive_groups.push_back(g);
  }
}

Value Interpreter::argparse_method(const std::shared_ptr<ArgParserObject>& parser, const std::string& m,
                                   const std::vector<ArgValue>& args, const Node* site) {
  Args a(args);
  auto arg0 = [&]() -> const Value* { return a.positional.empty() ? nullptr : &a.positional.front()->value; };
  if (parser->class_name == "argparse._MutuallyExclusiveGroup") {
    // its add_argument adds to the parser, and the argument to the group
    if (m != "add_argument" || !parser->owner) return Value::unknown();
    ArgParserObject& owner = *parser->owner;
    std::size_t before = owner.arguments.size();
    Value v = argparse_method(parser->owner, m, args, site);
    if (owner.arguments.size() > before && parser->group_index < owner.exclusive_groups.size())
      owner.exclusive_groups[parser->group_index].dests.push_back(owner.arguments.back().dest);
    return v;
  }
  if (parser->class_name == "argparse._SubParsersAction") {
    // add_parser(name, aliases=[...], parents=[...]): a parser for the rest of the command line
    if (m != "add_parser" || !arg0() || !arg0()->is_str() || !arg0()->as_str()) return Value::unknown();
    auto sub = std::make_shared<ArgParserObject>();
    note_created(sub.get(), site->loc);
    std::vector<std::string> names{*arg0()->as_str()};
    if (const ArgValue* al = a.kw("aliases"); al && al->value.is_sequence() && al->value.items()) {
      for (const Value& n : *al->value.items())
        if (n.is_str() && n.as_str()) names.push_back(*n.as_str());
    }
    if (const ArgValue* pa = a.kw("parents")) inherit_arguments(*sub, pa->value);
    parser->commands.emplace_back(names, sub);
    return Value::object(sub);
  }
  if (m == "add_subparsers") {
    bool already = false;
    for (const Argument& x : parser->arguments) already = already || x.action == "parsers";
    if (already) return Value::unknown();  // argparse refuses a second one
    auto action = std::make_shared<ArgParserObject>();
    action->class_name = "argparse._SubParsersAction";
    note_created(action.get(), site->loc);
    Argument spec;
    spec.action = "parsers";
    spec.dest = "==SUPPRESS==";
    if (const ArgValue* d = a.kw("dest"); d && d->value.is_str() && d->value.as_str()) spec.dest = *d->value.as_str();
    if (const ArgValue* d = a.kw("dest"); d && !(d->value.is_str() && d->value.as_str())) return Value::unknown();
    if (const ArgValue* req = a.kw("required")) spec.required = bool_of(&req->value) == true;
    spec.subparsers = action;
    spec.loc = site->loc;
    parser->arguments.push_back(spec);
    if (spec.dest != "==SUPPRESS==") parser->defaults.emplace_back(spec.dest, Value::none());
    return Value::object(action);
  }
  if (m == "add_argument") {
    std::string dest;
    for (const ArgValue* p : a.positional) {
      if (!p->value.is_str() || !p->value.as_str()) continue;
      const std::string& flag = *p->value.as_str();
      if (starts_with(flag, "--")) {
        if (dest.empty() || dest.size() <= 1) dest = flag.substr(2);
      } else if (starts_with(flag, "-")) {
        if (dest.empty()) dest = flag.substr(1);
      } else if (dest.empty()) {
        dest = flag;
      }
    }
    if (const ArgValue* d = a.kw("dest"); d && d->value.is_str() && d->value.as_str()) dest = *d->value.as_str();
    for (char& c : dest)
      if (c == '-') c = '_';
    if (dest.empty()) return Value::unknown();
    Value value = Value::none();
    const ArgValue* action = a.kw("action");
    std::string act = action && action->value.is_str() && action->value.as_str() ? *action->value.as_str() : "";
    if (act == "store_true") value = Value::boolean(false);
    if (act == "store_false") value = Value::boolean(true);
    if (const ArgValue* d = a.kw("default")) {
      value = d->value;
      // argparse converts string defaults with `type`
      const ArgValue* type = a.kw("type");
      const auto* lib = type ? object_as<LibraryName>(type->value) : nullptr;
      if (lib && value.is_str() && value.as_str()) {
        try {
          if (lib->path == "builtins.int") value = Value::integer(static_cast<int64_t>(std::stoll(*value.as_str())));
          if (lib->path == "builtins.float") value = Value::floating(std::stod(*value.as_str()));
        } catch (const std::exception&) {
          value = Value::unknown();
        }
      }
    } else if (const ArgValue* req = a.kw("required"); req && bool_of(&req->value) == true) {
      value = Value::unknown();
    } else if (a.kw("nargs")) {
      value = Value::unknown();
    }
    bool replaced = false;
    for (auto& [k, v] : parser->defaults) {
      if (k == dest) {
        v = value;
        replaced = true;
      }
    }
    if (!replaced) parser->defaults.emplace_back(dest, value);
    // what a launch's command line is parsed with
    ArgParserObject::Argument spec;
    for (const ArgValue* p : a.positional)
      if (p->value.is_str() && p->value.as_str() && starts_with(*p->value.as_str(), "-")) spec.flags.push_back(*p->value.as_str());
    spec.dest = dest;
    spec.action = act.empty() ? "store" : act;
    if (const ArgValue* type = a.kw("type")) {
      const auto* lib = object_as<LibraryName>(type->value);
      std::string t = lib ? lib->path : "";
      spec.type = t == "builtins.int" ? "int" : t == "builtins.float" ? "float" : t == "builtins.str" ? "str" : "?";
    }
    if (const ArgValue* n = a.kw("nargs")) {
      if (n->value.is_str() && n->value.as_str()) spec.nargs = *n->value.as_str();
      else if (n->value.is_int() && n->value.as_int().constant_value()) spec.nargs = std::to_string(*n->value.as_int().constant_value());
      else spec.nargs = "?unknown";
    }
    if (const ArgValue* c = a.kw("const")) spec.constant = c->value;
    if (const ArgValue* c = a.kw("choices")) {
      if (auto items = known_items(c->value, 4096)) spec.choices = *items;
      else spec.choices_known = false;
    }
    if (const ArgValue* req = a.kw("required")) spec.required = bool_of(&req->value) == true;
    spec.loc = site->loc;
    parser->arguments.push_back(std::move(spec));
    return Value::unknown();
  }
  if (m == "add_argument_group") return Value::object(parser);
  if (m == "add_mutually_exclusive_group") {
    auto group = std::make_shared<ArgParserObject>();
    group->class_name = "argparse._MutuallyExclusiveGroup";
    note_created(group.get(), site->loc);
    group->owner = parser;
    group->group_index = parser->exclusive_groups.size();
    ArgParserObject::ExclusiveGroup g;
    if (const ArgValue* req = a.kw("required")) g.required = bool_of(&req->value) == true;
    else if (!a.positional.empty()) g.required = bool_of(&a.positional.front()->value) == true;
    parser->exclusive_groups.push_back(std::move(g));
    return Value::object(group);
  }
  if (m == "set_defaults") {
    for (const ArgValue& x : args) {
      if (x.type != ir::Argument::Type::Keyword) continue;
      bool replaced = false;
      for (auto& [k, v] : parser->defaults) {
        if (k == x.name) {
          v = x.value;
          replaced = true;
        }
      }
      if (!replaced) parser->defaults.emplace_back(x.name, x.value);
    }
    return Value::none();
  }
  const bool parsing = m == "parse_args" || m == "parse_known_args";
  // parse_known_args gives the namespace and the words it did not read
  auto parsed = [&](Value nsv) {
    return m == "parse_known_args" ? Value::tuple({nsv, Value::unknown_length(SequenceKind::List, Value::string())}) : nsv;
  };
  // every value unknown, not the defaults
  auto unknown_values = [&](ObjectValue& ns) {
    ns.attributes.clear();
    for (const auto& [k, v] : parser->defaults) ns.attributes[k] = Value::unknown();
    forget_commands(*parser, ns);
  };
  if (parsing && !arg0() && !a.kw("args") &&
      (project_changes_argv() || (options_.any_command_line && !launch_applies_here() && !options_.symbolic_args))) {
    // the program edits sys.argv before parsing it (injected options, a
    // shorthand it expands), or the instrumented copy may be run with any
    // command line: neither the launch's words nor the defaults are what
    // argparse reads
    auto ns = std::make_shared<ObjectValue>("argparse.Namespace");
    note_created(ns.get(), site->loc);
    unknown_values(*ns);
    return parsed(Value::object(ns));
  }
  if (parsing && (launch_applies_here() || options_.symbolic_args) && !arg0() && !a.kw("args"))
    return parsed(parse_command_line(*parser, site, m == "parse_known_args"));
  const Value* given = arg0() ? arg0() : a.kw("args") ? &a.kw("args")->value : nullptr;
  if (parsing && given && !given->is_none()) {
    // parse_args(['--batch-size', '8']): the program's own words, not the
    // command line. Parsed when they are constant strings that argparse
    // accepts; otherwise every value is unknown (not the defaults).
    auto ns = std::make_shared<ObjectValue>("argparse.Namespace");
    note_created(ns.get(), site->loc);
    std::optional<std::vector<std::string>> words;
    if (auto items = known_items(*given, 4096)) {
      words.emplace();
      for (const Value& w : *items) {
        if (!w.is_str() || !w.as_str()) {
          words.reset();
          break;
        }
        words->push_back(*w.as_str());
      }
    }
    bool failed = !words;
    std::vector<std::string> extras;
    if (words) {
      std::size_t errors_before = launch_errors_.size();
      parse_words(*parser, *words, *ns, extras, site, failed, false);
      launch_errors_.resize(errors_before);  // argparse's own errors are not the launch's
      failed = failed || (!extras.empty() && m == "parse_args");
    }
    if (failed) unknown_values(*ns);
    return parsed(Value::object(ns));
  }
  if (parsing) {
    auto ns = std::make_shared<ObjectValue>("argparse.Namespace");
    for (const auto& [k, v] : parser->defaults) ns->attributes[k] = v;
    forget_commands(*parser, *ns);
    note_created(ns.get(), site->loc);
    return parsed(Value::object(ns));
  }
  return Value::unknown();
}

bool Interpreter::project_changes_argv() {
  // by its text: `sys.argv += [...]`, `sys.argv = ...`, `sys.argv[1:] = ...`,
  // `sys.argv.append(...)` and the other list methods, `del sys.argv[...]`
  static const std::regex change(
      R"(\bsys\.argv\s*(\+=|=[^=]|\[[^\]]*\]\s*=[^=]|\.(append|extend|insert|remove|pop|clear|sort|reverse)\s*\()|\bdel\s+sys\.argv\b)");
  if (!changes_argv_) changes_argv_ = project_text_matches(
        "sys.argv", [](const std::string& text) { return std::regex_search(text, change); });
  return *changes_argv_;
}

bool Interpreter::project_text_matches(const std::string& word,
                                       const std::function<bool(const std::string&)>& also) const {
  for (const ProjectModule& pm : project_.modules) {
    if (!pm.file) continue;
    const std::string& text = pm.file->text();
    if (text.find(word) != std::string::npos && (!also || also(text))) return true;
  }
  return false;
}

bool Interpreter::launch_applies_here() const {
  if (!options_.launch_args) return false;
  if (options_.launch_script.empty() || frames_.empty() || !frames_.front()->module ||
      !frames_.front()->module->project_module)
    return true;
  std::error_code ec1, ec2;
  std::filesystem::path a = std::filesystem::weakly_canonical(frames_.front()->module->project_module->file->path(), ec1);
  std::filesystem::path b = std::filesystem::weakly_canonical(options_.launch_script, ec2);
  return ec1 || ec2 || a == b;
}

Value Interpreter::parse_command_line(ArgParserObject& parser, const Node* site, bool known_only) {
  if (options_.symbolic_args) return symbolic_arguments(parser, site);
  auto ns = std::make_shared<ObjectValue>("argparse.Namespace");
  note_created(ns.get(), site->loc);
  std::vector<std::string> extras;
  bool failed = false;
  parse_words(parser, *options_.launch_args, *ns, extras, site, failed);
  bool rejected = failed;
  // `@args.txt` with fromfile_prefix_chars: the file's words set options the
  // analysis does not read, so none of the values is known (tester9/22)
  for (const std::string& w : *options_.launch_args)
    if (!w.empty() && (parser.unknown_prefix || parser.fromfile_prefix_chars.find(w[0]) != std::string::npos))
      rejected = true;
  if (!extras.empty() && !known_only && !failed) {
    rejected = true;
    std::string list;
    for (const std::string& w : extras) list += (list.empty() ? "" : " ") + w;
    launch_errors_.push_back({Severity::Error, site->loc, {},
                              "argparse rejects this command line: unrecognized arguments: " + list +
                                  " (the script exits with status 2)",
                              {}, {}});
  }
  // a command line the analysis reads otherwise than argparse would: its
  // values are unknown, not the defaults, so that what depends on them is
  // checked at run time (gshape run goes on after the error)
  if (rejected)
    for (auto& [name, value] : ns->attributes) value = Value::unknown();
  return Value::object(ns);
}

void Interpreter::parse_words(ArgParserObject& parser, const std::vector<std::string>& given_words, ObjectValue& nsobj,
                              std::vector<std::string>& extras, const Node* site, bool& failed, bool launch) {
  ObjectValue* ns = &nsobj;
  for (const auto& [k, v] : parser.defaults) ns->attributes[k] = v;
  auto error = [&](const std::string& message) {
    if (!failed) {
      launch_errors_.push_back({Severity::Error, site->loc, {},
                                "argparse rejects this command line: " + message + " (the script exits with status 2)",
                                {}, {}});
    }
    failed = true;
  };
  std::map<std::string, std::string> given;  // dest → the words that set it
  std::set<const Argument*> seen;
  std::vector<const Argument*> seen_options;  // options, in the order the command line gives them
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
  // A sub-parsers positional takes the word after the positionals declared
  // before it, and every word after that goes to the sub-parser it names.
  const Argument* commands = nullptr;
  std::size_t words_before_commands = 0;
  bool unmodelled = false;
  for (const Argument& a : parser.arguments) {
    if (!a.flags.empty()) continue;
    if (a.action == "parsers") {
      commands = &a;
      break;
    }
    if (a.nargs.empty()) ++words_before_commands;
    else if (python_int(a.nargs)) words_before_commands += static_cast<std::size_t>(std::max<int64_t>(0, *python_int(a.nargs)));
    else unmodelled = true;  // a variable number of words before the command: not modelled
  }
  if (commands && unmodelled) {
    for (auto& [k, v] : ns->attributes) v = Value::unknown();
    for (const auto& [names, sub] : commands->subparsers->commands)
      for (const auto& [k, v] : sub->defaults) ns->attributes[k] = Value::unknown();
    ns->attributes[commands->dest] = Value::unknown();
    return;
  }
  // short options as argparse reads them: a value attached (`-d8`) and
  // clustered flags (`-qd8` is -q -d 8)
  std::vector<std::string> expanded_words;
  for (std::size_t i = 0; i < given_words.size(); ++i) {
    const std::string& w = given_words[i];
    if (w == "--") {
      expanded_words.insert(expanded_words.end(), given_words.begin() + static_cast<std::ptrdiff_t>(i), given_words.end());
      break;
    }
    if (!looks_like_option(w) || w.size() <= 2 || w[1] == '-' || find_option(w) || w.find('=') != std::string::npos) {
      expanded_words.push_back(w);
      continue;
    }
    std::vector<std::string> parts;
    std::size_t pos = 1;
    for (; pos < w.size(); ++pos) {
      const Argument* a = find_option(std::string("-") + w[pos]);
      if (!a) break;
      parts.push_back(std::string("-") + w[pos]);
      bool flag = a->action == "store_true" || a->action == "store_false" || a->action == "store_const" ||
                  a->action == "count";
      if (!flag) {
        if (pos + 1 < w.size()) parts.push_back(w.substr(pos + 1));
        pos = w.size();
        break;
      }
    }
    if (pos < w.size() || parts.empty()) {
      expanded_words.push_back(w);  // not a cluster argparse reads: unrecognized, as there
    } else {
      expanded_words.insert(expanded_words.end(), parts.begin(), parts.end());
    }
  }
  std::vector<std::string> positional_words;
  std::optional<std::size_t> command_at;  // index in `words` of the sub-command's name
  const std::vector<std::string>& words = expanded_words;
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "--") {
      for (std::size_t j = i + 1; j < words.size(); ++j) {
        if (commands && !command_at && positional_words.size() == words_before_commands) {
          command_at = j;
          break;
        }
        positional_words.push_back(words[j]);
      }
      break;
    }
    if (!looks_like_option(w)) {
      if (commands && positional_words.size() == words_before_commands) {
        command_at = i;
        break;
      }
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
      extras.push_back(w);
      continue;
    }
    seen.insert(a);
    seen_options.push_back(a);
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
    if (!a.flags.empty() || a.action == "parsers") continue;
    if (a.nargs == "*" || a.nargs == "+" || a.nargs == "?") {
      std::vector<Value> converted;
      for (; next < positional_words.size(); ++next) {
        converted.push_back(convert(a, positional_words[next]));
        if (a.nargs == "?") {
          ++next;
          break;
        }
      }
      if (a.nargs == "+" && converted.empty()) continue;  // required, missing
      seen.insert(&a);
      if (a.nargs == "?") {
        if (!converted.empty()) ns->attributes[a.dest] = converted.front();
      } else {
        ns->attributes[a.dest] = Value::list(std::move(converted));
      }
      continue;
    }
    if (next >= positional_words.size()) continue;  // required, missing
    seen.insert(&a);
    given[a.dest] = positional_words[next];
    ns->attributes[a.dest] = convert(a, positional_words[next++]);
  }
  for (; next < positional_words.size(); ++next) extras.push_back(positional_words[next]);

  // the sub-command: its parser parses the rest; its values (defaults too) win
  std::set<std::string> set_by_command;
  if (commands && command_at) {
    const std::string& name = words[*command_at];
    std::shared_ptr<ArgParserObject> sub;
    std::string list;
    for (const auto& [names, p] : commands->subparsers->commands) {
      for (const std::string& n : names) {
        if (n == name && !sub) sub = p;
        list += (list.empty() ? "" : ", ") + ("'" + n + "'");
      }
    }
    seen.insert(commands);
    if (!sub) {
      error("argument " + display(*commands) + ": invalid choice: '" + name + "' (choose from " + list + ")");
    } else {
      if (commands->dest != "==SUPPRESS==") ns->attributes[commands->dest] = Value::string(name);
      ObjectValue subns("argparse.Namespace");
      std::vector<std::string> rest(words.begin() + static_cast<std::ptrdiff_t>(*command_at) + 1, words.end());
      parse_words(*sub, rest, subns, extras, site, failed, launch);
      for (auto& [k, v] : subns.attributes) {
        ns->attributes[k] = v;
        set_by_command.insert(k);
      }
    }
  }
  std::string group_missing;  // argparse reports it after the required arguments
  // mutually exclusive groups: two of one group given is an error (argparse
  // names the second one seen); a required group none of whose is given too.
  // An option whose value equals its default may pass argparse's identity
  // test (`is not action.default`): not claimed as a conflict.
  for (const ArgParserObject::ExclusiveGroup& g : parser.exclusive_groups) {
    auto in_group = [&](const Argument* x) {
      return std::find(g.dests.begin(), g.dests.end(), x->dest) != g.dests.end();
    };
    const Argument* first = nullptr;
    bool any = false;
    for (const Argument* x : seen_options) {
      if (!in_group(x)) continue;
      any = true;
      const Value* v = ns->attribute(x->dest);
      const Value* d = nullptr;
      for (const auto& [k, dv] : parser.defaults)
        if (k == x->dest) d = &dv;
      bool non_default = v && (!d || d->is_none() ? !(v->is_none()) : !same_value(*v, *d));
      if (!non_default) continue;
      if (first && first->dest != x->dest) {
        error("argument " + display(*x) + ": not allowed with argument " + display(*first));
        break;
      }
      if (!first) first = x;
    }
    std::string names;
    bool positional = false;  // a positional of the group (nargs='?') is not tracked here: no claim
    for (const Argument& x : parser.arguments) {
      if (std::find(g.dests.begin(), g.dests.end(), x.dest) == g.dests.end()) continue;
      names += (names.empty() ? "" : " ") + display(x);
      positional = positional || x.flags.empty();
    }
    if (g.required && !any && !positional && group_missing.empty()) group_missing = "one of the arguments " + names + " is required";
  }
  // what argparse requires and the command line does not give, in one message
  std::string missing;
  for (const Argument& a : parser.arguments) {
    bool required = a.required || (a.flags.empty() && a.action != "parsers" && a.nargs != "?" && a.nargs != "*");
    if (required && !seen.count(&a))
      missing += (missing.empty() ? "" : ", ") + display(a);
  }
  if (!missing.empty()) error("the following arguments are required: " + missing);
  if (!group_missing.empty()) error(group_missing);

  // each int of a launch: a symbol named after its option, held to its value
  // by a fact (the program's own words give plain constants)
  for (const Argument& a : parser.arguments) {
    if (!launch) break;
    if (set_by_command.count(a.dest)) continue;  // the sub-parser's own
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
}

Value Interpreter::symbolic_arguments(ArgParserObject& parser, const Node* site) {
  auto ns = std::make_shared<ObjectValue>("argparse.Namespace");
  for (const auto& [k, v] : parser.defaults) ns->attributes[k] = v;
  forget_commands(parser, *ns);
  note_created(ns.get(), site->loc);
  symbolize_arguments(parser, *ns, "");
  // sub-commands: analysed one by one (analyse_project), each as the one
  // that runs, and no sub-command when none is required
  for (const Argument& x : parser.arguments) {
    if (x.action != "parsers" || !x.subparsers) continue;
    if (options_.symbolic_command.empty() && !x.required && !x.subparsers->commands.empty() &&
        std::find(symbolic_commands_.begin(), symbolic_commands_.end(), kNoSubcommand) == symbolic_commands_.end())
      symbolic_commands_.push_back(kNoSubcommand);
    for (const auto& [names, sub] : x.subparsers->commands) {
      if (names.empty()) continue;
      const std::string& name = names.front();
      if (options_.symbolic_command.empty()) {
        if (std::find(symbolic_commands_.begin(), symbolic_commands_.end(), name) == symbolic_commands_.end())
          symbolic_commands_.push_back(name);
        continue;
      }
      if (options_.symbolic_command == kNoSubcommand) {
        if (x.dest != "==SUPPRESS==") ns->attributes[x.dest] = Value::none();
        break;
      }
      if (name != options_.symbolic_command) continue;
      if (x.dest != "==SUPPRESS==") ns->attributes[x.dest] = Value::string(name);
      for (const auto& [k, v] : sub->defaults) ns->attributes[k] = v;
      forget_commands(*sub, *ns);  // its own sub-commands stay unknown
      symbolize_arguments(*sub, *ns, name);
    }
  }
  return Value::object(ns);
}

void Interpreter::symbolize_arguments(const ArgParserObject& parser, ObjectValue& ns, const std::string& command) {
  for (const Argument& a : parser.arguments) {
    if (a.action != "store" || !a.nargs.empty()) continue;
    const Value* def = ns.attribute(a.dest);
    bool is_int = a.type == "int" || (a.type.empty() && def && def->is_int());
    if (!is_int) continue;
    Dim s = Dim::symbol(a.dest, false);
    Pred declared(true);
    if (!a.choices.empty() && a.choices_known) {
      std::vector<Pred> options;
      for (const Value& c : a.choices)
        if (c.is_int()) options.push_back(eq(s, c.as_int()));
      std::string list;
      for (const Value& c : a.choices) list += (list.empty() ? "" : ", ") + c.str();
      declared = any_of(options);
      add_fact(declared, a.loc, short_name(a) + " is one of " + list);
    }
    ns.attributes[a.dest] = Value::integer(s);
    bool duplicate = false;  // a parse_args analysed again (another context)
    for (const auto& known : argument_symbols_) duplicate = duplicate || (known.dest == a.dest && known.command == command);
    if (duplicate) continue;
    argument_symbols_.push_back({s, a.dest, a.flags.empty() ? "" : short_name(a), a.loc, declared, command,
                                 a.required || a.flags.empty()});
  }
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

namespace {

Value from_yaml(const YamlValue& y) {
  switch (y.kind) {
    case YamlValue::Kind::Unknown: return Value::unknown();
    case YamlValue::Kind::Null: return Value::none();
    case YamlValue::Kind::Bool: return Value::boolean(Pred(y.boolean));
    case YamlValue::Kind::Int: return Value::integer(Dim(y.integer));
    case YamlValue::Kind::Float: return Value::floating(y.number);
    case YamlValue::Kind::String: return Value::string(y.string);
    case YamlValue::Kind::List: {
      std::vector<Value> items;
      for (const YamlValue& x : y.items) items.push_back(from_yaml(x));
      return Value::list(std::move(items));
    }
    case YamlValue::Kind::Map: {
      auto d = std::make_shared<DictObject>();
      for (const auto& [k, v] : y.entries) d->set(k, from_yaml(v));
      d->complete = y.complete;
      return Value::object(d);
    }
  }
  return Value::unknown();
}

// The text of a config file a launch opened (at most 1 MiB), or nullopt.
std::optional<std::string> read_config_text(const Value& source, std::string& name, std::vector<std::string>& read) {
  constexpr std::uintmax_t kMaxConfigBytes = 1u << 20;  // a config, not a dataset
  const auto* file = object_as<FileObject>(source);
  if (!file) return std::nullopt;
  read.push_back(file->path);  // gshape run's cache depends on it, read or not
  std::error_code ec;
  std::uintmax_t size = std::filesystem::file_size(file->path, ec);
  if (ec || size > kMaxConfigBytes) return std::nullopt;
  std::ifstream in(file->path, std::ios::binary);
  std::ostringstream buf;
  buf << in.rdbuf();
  if (!in && !in.eof()) return std::nullopt;
  name = file->path;
  return buf.str();
}

}  // namespace

// The ints of a config's mappings (nested ones by their dotted key): symbols
// held to their values by facts naming the file and key.
void Interpreter::hold_config_ints(Value& v, const std::string& name, const std::string& prefix, const Node* site,
                                   int depth) {
  if (depth == 0 && options_.symbolic_args) {
    // --args=symbolic: the file of a default path, its values constants (a
    // requirement over them and the arguments is a precondition on the arguments)
    bool file = name != "the JSON text" && name != "the YAML text";
    if (file && std::find(symbolic_inputs_.begin(), symbolic_inputs_.end(), name) == symbolic_inputs_.end())
      symbolic_inputs_.push_back(name);
    return;
  }
  auto* d = object_as<DictObject>(v);
  if (!d || depth > 8) return;
  for (auto& [key, value] : d->entries) {
    if (key.rfind("s:", 0) != 0) continue;
    std::string k = prefix + key.substr(2);
    if (object_as<DictObject>(value)) {
      hold_config_ints(value, name, k + ".", site, depth + 1);
      continue;
    }
    if (!value.is_int() || !value.as_int().constant_value()) continue;
    int64_t n = *value.as_int().constant_value();
    Dim s = Dim::symbol(k + "=" + std::to_string(n), false);
    add_fact(eq(s, Dim(n)), site->loc, "from " + name + ": \"" + k + "\": " + std::to_string(n));
    launch_values_.push_back({s, n});
    value = Value::integer(s);
  }
}

bool Interpreter::project_writes_files() {
  // by its text: open(..., 'w'/'a'/'x'/'+'), json/yaml dumps, Path.write_*,
  // shutil copies and moves, os.rename/replace
  static const std::regex write(
      R"(\bopen\s*\([^)]*['"][rbt]*[wax+][^'"]*['"]|\bopen\s*\([^,)]*,\s*[A-Za-z_]|\bmode\s*=\s*[^'"\s]|\bmode\s*=\s*['"][rbt]*[wax+]|\.write_(text|bytes)\s*\(|\b(json|yaml)\.(safe_)?dump(_all)?\s*\(|\bOmegaConf\.save\s*\(|\bshutil\.|\bos\.(rename|replace|system|popen)\s*\(|\bsubprocess\.|\bos\.exec|\bos\.spawn)");
  if (!writes_files_) writes_files_ = project_text_matches("", [](const std::string& text) {
    return std::regex_search(text, write);
  });
  return *writes_files_;
}

std::optional<Value> Interpreter::read_launch_json(const Value& source, bool is_text, const Node* site) {
  std::string text, name;
  if (!is_text && project_writes_files()) return std::nullopt;  // it may rewrite the file first
  if (is_text) {
    if (!source.is_str() || !source.as_str()) return std::nullopt;
    text = *source.as_str();
    name = "the JSON text";
  } else {
    std::optional<std::string> t = read_config_text(source, name, launch_inputs_);
    if (!t) return std::nullopt;
    text = std::move(*t);
  }
  std::string error;
  std::optional<Json> doc = parse_json_text(text, error);
  if (!doc) {
    launch_errors_.push_back({Severity::Error, site->loc, {},
                              "json.load fails on " + name + " for this launch: " + error, {}, {}});
    return Value::unknown();
  }
  Value v = from_json(*doc);
  hold_config_ints(v, name, "", site, 0);
  return v;
}

std::optional<Value> Interpreter::read_launch_yaml(const Value& source, const Node* site) {
  std::string text, name;
  if (!(source.is_str() && source.as_str()) && project_writes_files()) return std::nullopt;  // it may rewrite it
  if (source.is_str() && source.as_str()) {
    text = *source.as_str();
    name = "the YAML text";
  } else {
    std::optional<std::string> t = read_config_text(source, name, launch_inputs_);
    if (!t) return std::nullopt;
    text = std::move(*t);
  }
  std::string error;
  std::optional<YamlValue> doc = read_yaml_config(text, error);
  if (!doc) return Value::unknown();  // yaml-cpp and PyYAML differ on corner cases: no error claimed
  Value v = from_yaml(*doc);
  hold_config_ints(v, name, "", site, 0);
  return v;
}

}  // namespace gshape::gradual::interp

namespace gshape::gradual {

namespace {

void conjuncts_of(const Pred& p, std::vector<Pred>& out) {
  if (p.node()->op == TermOp::And) {
    for (const TermNode* a : p.node()->args) conjuncts_of(Pred(a), out);
    return;
  }
  out.push_back(p);
}

// Python's spelling, with the spaces the report's readers expect around `%`.
std::string condition_text(const Pred& p) {
  std::string text = p.str(), out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '%' && i > 0 && text[i - 1] != ' ') {
      out += " % ";
      if (i + 1 < text.size() && text[i + 1] == ' ') ++i;
      continue;
    }
    out += text[i];
  }
  return out;
}

bool has_min_max(const TermNode* n) {
  if (n->op == TermOp::Min || n->op == TermOp::Max || n->op == TermOp::Ite) return true;
  for (const TermNode* a : n->args)
    if (has_min_max(a)) return true;
  return false;
}

// A condition over one or two arguments written with min/max (a slice of a
// table: `seq_len == max(0, min(block_size, seq_len)) or ...`), restated as
// the first of a few plain forms — a sign requirement and a disjunction of
// at most three comparisons — that is equivalent to it under `context`:
// candidates are screened on small values, then Z3 confirms.
std::optional<Pred> plain_form(const Pred& c, const std::vector<Pred>& context) {
  if (!has_min_max(c.node())) return std::nullopt;
  std::vector<Dim> syms = symbols_of(c.node());
  if (syms.empty() || syms.size() > 2) return std::nullopt;
  const Dim a = syms[0];
  const Dim b = syms.size() > 1 ? syms[1] : syms[0];
  std::vector<Pred> signs = {Pred(true), le(Dim(0), a), lt(Dim(0), a)};
  std::vector<Pred> atoms = {eq(a, Dim(0)), eq(a, Dim(1))};
  if (syms.size() > 1) {
    signs.push_back(le(Dim(0), b));
    signs.push_back(lt(Dim(0), b));
    signs.push_back(le(Dim(0), a) && le(Dim(0), b));
    for (const Pred& p : {le(a, b), le(b, a), lt(a, b), lt(b, a), eq(a, b), ne(a, b), eq(b, Dim(0)), eq(b, Dim(1))})
      atoms.push_back(p);
  }
  // the context's conditions over these symbols alone screen the grid
  std::vector<const TermNode*> local;
  std::vector<Pred> parts;
  for (const Pred& q : context) conjuncts_of(q, parts);
  for (const Pred& q : parts) {
    bool inside = true;
    for (const Dim& s : symbols_of(q.node())) inside = inside && (s == a || s == b);
    if (inside) local.push_back(q.node());
  }
  std::vector<Assignment> grid;
  std::vector<int64_t> want;
  for (int64_t x = -2; x <= 8; ++x) {
    for (int64_t y = -2; y <= (syms.size() > 1 ? 8 : -2); ++y) {
      Assignment at = {{a.node(), x}};
      if (syms.size() > 1) at.push_back({b.node(), y});
      bool in_context = true;
      for (const TermNode* q : local) {
        std::optional<int64_t> v = evaluate(q, at);
        in_context = in_context && v && *v != 0;
      }
      if (!in_context) continue;
      std::optional<int64_t> v = evaluate(c.node(), at);
      if (!v) continue;
      grid.push_back(at);
      want.push_back(*v != 0);
    }
  }
  if (grid.empty()) return std::nullopt;
  auto agrees = [&](const Pred& cand) {
    for (std::size_t i = 0; i < grid.size(); ++i) {
      std::optional<int64_t> v = evaluate(cand.node(), grid[i]);
      if (!v || (*v != 0) != (want[i] != 0)) return false;
    }
    return true;
  };
  auto equivalent = [&](const Pred& cand) {
    Solver solver;
    for (const Pred& q : context) solver.add_fact(q, {}, "context");
    return solver.query(implies(c, cand) && implies(cand, c)) == true;
  };
  std::vector<Pred> disjunctions;
  for (std::size_t i = 0; i < atoms.size(); ++i) disjunctions.push_back(atoms[i]);
  for (std::size_t i = 0; i < atoms.size(); ++i)
    for (std::size_t j = i + 1; j < atoms.size(); ++j) disjunctions.push_back(atoms[i] || atoms[j]);
  for (std::size_t i = 0; i < atoms.size(); ++i)
    for (std::size_t j = i + 1; j < atoms.size(); ++j)
      for (std::size_t k = j + 1; k < atoms.size(); ++k) disjunctions.push_back(atoms[i] || atoms[j] || atoms[k]);
  for (const Pred& sign : signs) {
    if (!sign.is_true() && agrees(sign) && equivalent(sign)) return sign;
  }
  for (const Pred& d : disjunctions) {
    for (const Pred& sign : signs) {
      Pred cand = sign && d;
      if (agrees(cand) && equivalent(cand)) return cand;
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<AnalysisResult::Precondition> simplify_preconditions(std::vector<AnalysisResult::Precondition> pres,
                                                                 const std::vector<AnalysisResult::ArgumentSymbol>& args) {
  std::vector<Pred> current;
  for (const auto& p : pres) current.push_back(p.pred);
  Pred declared(true);
  for (const auto& a : args) declared = declared && a.declared;
  std::vector<bool> keep(pres.size(), true);
  constexpr std::size_t kMaxSimplified = 64;  // a solver per conjunct and pair: quadratic
  for (std::size_t i = 0; i < pres.size() && pres.size() <= kMaxSimplified; ++i) {
    if (pres[i].refuted || pres[i].pred.is_constant()) continue;
    std::vector<Pred> parts;
    conjuncts_of(current[i], parts);
    std::vector<Pred> kept;
    for (std::size_t k = 0; k < parts.size(); ++k) {
      // implied by the declarations, the other preconditions (as they stand
      // now: the conjunction of all of them never changes) and the conjuncts
      // of this one that stay
      Solver solver;
      solver.add_fact(declared, {}, "declared");
      for (std::size_t j = 0; j < pres.size(); ++j)
        if (j != i && keep[j]) solver.add_fact(current[j], {}, "precondition");
      for (const Pred& q : kept) solver.add_fact(q, {}, "kept");
      for (std::size_t l = k + 1; l < parts.size(); ++l) solver.add_fact(parts[l], {}, "rest");
      if (solver.query(parts[k]) == true) continue;
      kept.push_back(parts[k]);
    }
    if (kept.empty()) {
      keep[i] = false;
      continue;
    }
    // min/max forms restated plainly, equivalent under everything else
    for (std::size_t k = 0; k < kept.size(); ++k) {
      if (!has_min_max(kept[k].node())) continue;
      std::vector<Pred> context = {declared};
      for (std::size_t j = 0; j < pres.size(); ++j)
        if (j != i && keep[j]) context.push_back(current[j]);
      for (std::size_t l = 0; l < kept.size(); ++l)
        if (l != k) context.push_back(kept[l]);
      if (std::optional<Pred> plain = plain_form(kept[k], context)) kept[k] = *plain;
    }
    Pred simplified = all_of(kept);
    if (simplified == current[i]) continue;
    current[i] = simplified;
    pres[i].pred = simplified;
    // the counterexample must still break what is stated: else one that does
    Solver check;
    bool breaks = false;
    {
      Solver at;
      std::string words = pres[i].counterexample;
      std::map<std::string, int64_t> given;
      std::istringstream in(words);
      std::string w;
      std::string flag;
      while (in >> w) {
        if (flag.empty() && w.rfind("-", 0) == 0 && !interp::python_int(w)) {
          flag = w;
          continue;
        }
        std::optional<int64_t> v = interp::python_int(w);
        if (v && !flag.empty()) given[flag] = *v;
        flag.clear();
      }
      for (const auto& a : args) {
        auto it = given.find(a.flag);
        if (it != given.end()) at.add_fact(eq(a.symbol, Dim(it->second)), {}, "value");
      }
      breaks = !given.empty() && at.query(simplified) == false;
    }
    if (!breaks) {
      check.add_fact(declared, {}, "declared");
      Verdict v = check.decide(simplified);
      pres[i].counterexample = v.example.empty() ? std::string() : counterexample_words(v.example, args, pres[i].command);
    }
  }
  std::vector<AnalysisResult::Precondition> out;
  for (std::size_t i = 0; i < pres.size(); ++i) {
    if (!keep[i]) continue;
    pres[i].condition = condition_text(pres[i].pred);
    out.push_back(std::move(pres[i]));
  }
  return out;
}

}  // namespace gshape::gradual
