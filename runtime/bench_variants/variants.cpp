// Alternative bindings of the same one-site check, used only to choose the
// binding by measurement (scripts/bench-runtime.sh). Each variant records
// its operand and evaluates the site with the same CheckTable core as
// gshape_runtime._native; only the way Python reaches C++ differs:
//   PybindTable.check(site, slot, value)    pybind11 method, generic value
//   PybindTable.check_tensor(site, slot, t) pybind11 method, at::Tensor caster
//   torch.ops.gshape_bench.check(site, slot, t)   a TORCH_LIBRARY operator
#include "runtime/python_operand.h"  // first: it includes Python.h

#include <torch/library.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "runtime/check_table.h"

namespace py = pybind11;
using gshape::runtime::CheckSpec;
using gshape::runtime::CheckTable;
using gshape::runtime::Operand;
using gshape::runtime::OperandKind;

namespace {

std::vector<std::vector<CheckSpec>> one_check_site(const std::string& constraint) {
  CheckSpec spec;
  spec.line = 1;
  spec.col = 1;
  spec.tag = "bench";
  spec.constraint = constraint;
  spec.message = "bench check failed";
  return {{spec}};
}

void evaluate_or_throw(CheckTable& table, std::size_t site, const void* frame) {
  std::vector<std::size_t> failed;
  table.evaluate(site, frame, failed);
  std::string message = failed.empty() ? std::string() : table.failure_message(failed.front());
  table.clear(site);
  if (!failed.empty()) throw std::runtime_error(message);
}

class PybindTable {
 public:
  explicit PybindTable(const std::string& constraint) : table_("bench.py", one_check_site(constraint)) {}

  py::handle check(std::size_t site, std::size_t slot, py::handle value) {
    const void* frame = gshape::runtime::caller_frame();
    if (Operand* op = table_.slot(site, slot)) gshape::runtime::record(*op, value.ptr(), frame);
    evaluate_or_throw(table_, site, frame);
    return value;
  }

  at::Tensor check_tensor(std::size_t site, std::size_t slot, const at::Tensor& value) {
    if (Operand* op = table_.slot(site, slot)) record_sizes(*op, value, nullptr);
    evaluate_or_throw(table_, site, nullptr);
    return value;
  }

  static void record_sizes(Operand& op, const at::Tensor& value, const void* frame) {
    c10::IntArrayRef sizes = value.sizes();
    op.frame = frame;
    op.kind = OperandKind::Tensor;
    op.dims.assign(sizes.begin(), sizes.end());
    op.length = static_cast<int64_t>(sizes.size());
  }

  CheckTable& table() { return table_; }

 private:
  CheckTable table_;
};

// The operator variant needs a table reachable without Python.
std::unique_ptr<PybindTable>& op_table() {
  static std::unique_ptr<PybindTable> table;
  return table;
}

at::Tensor op_check(int64_t site, int64_t slot, const at::Tensor& value) {
  PybindTable* t = op_table().get();
  if (t == nullptr) throw std::runtime_error("call _bench_variants.set_op_constraint first");
  return t->check_tensor(static_cast<std::size_t>(site), static_cast<std::size_t>(slot), value);
}

}  // namespace

TORCH_LIBRARY(gshape_bench, m) {
  m.def("check(int site, int slot, Tensor(a) value) -> Tensor(a)", &op_check);
}

PYBIND11_MODULE(_bench_variants, m) {
  py::class_<PybindTable>(m, "PybindTable")
      .def(py::init<const std::string&>())
      .def("check", &PybindTable::check)
      .def("check_tensor", &PybindTable::check_tensor);
  m.def("set_op_constraint",
        [](const std::string& constraint) { op_table() = std::make_unique<PybindTable>(constraint); });
}
