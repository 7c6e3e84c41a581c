// Printing nn oracle cases as Python, and running them through nn_oracle.py.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

#include "nn_oracle.h"

namespace gshape::oracle::nn {

namespace {
std::string joined(const std::vector<int64_t>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + std::to_string(v[i]);
  return out;
}
}  // namespace

std::string NArg::python() const {
  switch (kind) {
    case Kind::Tensor: return "T(" + joined(shape) + ")";
    case Kind::LongTensor: return "LT(" + joined(shape) + ")";
    case Kind::BoolTensor: return "BT(" + joined(shape) + ")";
    case Kind::Int: return std::to_string(i);
    case Kind::Float: {
      std::ostringstream o;
      o.precision(17);
      o << f;
      std::string text = o.str();
      if (text.find_first_of(".e") == std::string::npos && text.find("inf") == std::string::npos) text += ".0";
      return text;
    }
    case Kind::Bool: return b ? "True" : "False";
    case Kind::None: return "None";
    case Kind::Str: return "'" + s + "'";
    case Kind::Tuple: {
      std::string out = "(";
      for (const NArg& a : items) out += a.python() + ", ";
      return out + ")";
    }
  }
  return "None";
}

NArg T(std::vector<int64_t> shape) {
  NArg a;
  a.kind = NArg::Kind::Tensor;
  a.shape = std::move(shape);
  return a;
}
NArg LT(std::vector<int64_t> shape) {
  NArg a = T(std::move(shape));
  a.kind = NArg::Kind::LongTensor;
  return a;
}
NArg BT(std::vector<int64_t> shape) {
  NArg a = T(std::move(shape));
  a.kind = NArg::Kind::BoolTensor;
  return a;
}
NArg I(int64_t v) {
  NArg a;
  a.kind = NArg::Kind::Int;
  a.i = v;
  return a;
}
NArg F(double v) {
  NArg a;
  a.kind = NArg::Kind::Float;
  a.f = v;
  return a;
}
NArg B(bool v) {
  NArg a;
  a.kind = NArg::Kind::Bool;
  a.b = v;
  return a;
}
NArg None() { return NArg(); }
NArg S(std::string v) {
  NArg a;
  a.kind = NArg::Kind::Str;
  a.s = std::move(v);
  return a;
}
NArg Tup(std::vector<NArg> items) {
  NArg a;
  a.kind = NArg::Kind::Tuple;
  a.items = std::move(items);
  return a;
}
NArg Ints(const std::vector<int64_t>& v) {
  std::vector<NArg> items;
  for (int64_t x : v) items.push_back(I(x));
  return Tup(std::move(items));
}

std::string NCall::python() const {
  std::string out;
  for (const NArg& a : args) out += (out.empty() ? "" : ", ") + a.python();
  for (const auto& [k, v] : kwargs) out += (out.empty() ? "" : ", ") + k + "=" + v.python();
  return out;
}

std::string shapes_str(const std::vector<std::optional<std::vector<int64_t>>>& shapes) {
  std::string out;
  for (const auto& s : shapes) out += (out.empty() ? "" : " ") + (s ? "[" + joined(*s) + "]" : std::string("None"));
  return out.empty() ? "(nothing)" : out;
}

namespace {

// `[[2, 3], null, []]` as written by json.dumps.
std::vector<std::optional<std::vector<int64_t>>> parse_shapes(const std::string& text) {
  std::vector<std::optional<std::vector<int64_t>>> out;
  std::size_t i = 1;  // after the outer '['
  while (i < text.size()) {
    char c = text[i];
    if (c == '[') {
      std::size_t end = text.find(']', i);
      std::vector<int64_t> shape;
      std::stringstream items(text.substr(i + 1, end - i - 1));
      std::string item;
      while (std::getline(items, item, ','))
        if (item.find_first_not_of(' ') != std::string::npos) shape.push_back(std::stoll(item));
      out.emplace_back(std::move(shape));
      i = end + 1;
    } else if (text.compare(i, 4, "null") == 0) {
      out.emplace_back(std::nullopt);
      i += 4;
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace

std::vector<NOutcome> run_python(const std::vector<std::pair<std::string, NCase>>& cases, std::string* error) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("gshape_nn_oracle_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path in = dir / "cases.txt", out = dir / "outcomes.txt", runtime = dir / "runtime.txt";
  {
    std::ofstream f(in);
    for (const auto& [target, c] : cases) f << target << '\t' << c.init.python() << '\t' << c.call.python() << '\n';
  }
  std::string command = std::string(GSHAPE_PYTHON) + " " + GSHAPE_NN_ORACLE_SCRIPT + " " + in.string() + " " + out.string();
#ifdef GSHAPE_RUNTIME_PYTHONPATH
  // the run-time checks too, on the same cases (nn_oracle.py)
  command = "PYTHONPATH=" + std::string(GSHAPE_RUNTIME_PYTHONPATH) + " GSHAPE_CHECKS= GSHAPE_RUNTIME_ORACLE_OUT=" +
            runtime.string() + " " + command;
#endif
  int status = std::system(command.c_str());
  std::vector<NOutcome> outcomes;
  std::ifstream f(out);
  std::string line;
  while (std::getline(f, line)) {
    NOutcome o;
    if (line.rfind("err ", 0) == 0) {
      o.threw = true;
      o.error = line.substr(4);
    } else if (line.rfind("ok ", 0) == 0) {
      o.shapes = parse_shapes(line.substr(3));
    }
    outcomes.push_back(std::move(o));
  }
  std::ifstream r(runtime);
  for (std::size_t i = 0; i < outcomes.size() && std::getline(r, line); ++i) outcomes[i].runtime = line;
  fs::remove_all(dir);
  if (status != 0 || outcomes.size() != cases.size()) {
    *error = "`" + command + "` exited with " + std::to_string(status) + " after " + std::to_string(outcomes.size()) +
             " of " + std::to_string(cases.size()) + " cases";
  }
  return outcomes;
}

}  // namespace gshape::oracle::nn
