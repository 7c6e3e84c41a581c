// Obligations: one constraint a rule imposes at one call site, with its tag,
// its message template, and what Z3 made of it (proven / refuted / deferred).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "frontend/source.h"
#include "gradual/constraint.h"
#include "gradual/shape.h"

namespace gshape {
class JsonWriter;
}

namespace gshape::gradual {

// Marks a `{shape K}` hole in a message.
struct ShapeHole {
  int slot = -1;  // -1: the operand has no slot; the static shape is printed
  Shape shape;    // static shape, for the static rendering
};

// A diagnostic text with holes, in the runtime's template format: text, `{e}`
// holes holding constraint expressions, `{shape K}`, `{{`/`}}` for braces.
// Streaming an IntTerm makes a hole (or plain text when it is a literal).
class Message {
 public:
  Message() = default;
  Message(const char* text) { *this << text; }  // NOLINT
  Message(std::string text) { *this << std::string_view(text); }  // NOLINT

  Message& operator<<(std::string_view text);
  Message& operator<<(const char* text) { return *this << std::string_view(text); }
  Message& operator<<(const std::string& text) { return *this << std::string_view(text); }
  Message& operator<<(const IntTerm& hole);
  Message& operator<<(const ShapeHole& hole);

  // `nn.Linear(80, 10) expects in_features 80 but the input's last dimension is {(size 1 -1)}`
  std::string runtime_template() const;
  // Holes filled with their static values (constants or symbolic terms).
  std::string render_static() const;
  // The same with each value hole and shape axis written by `dim_text` (a
  // launch's arguments by their values: gshape check SCRIPT -- ARGS).
  std::string render_static(const std::function<std::string(const Dim&)>& dim_text) const;
  // Slots read by the holes.
  std::vector<int> slots() const;
  // Slots whose whole shape the message prints (`{shape K}` holes).
  std::vector<int> shape_slots() const;

 private:
  struct Piece {
    std::string text;                // Text pieces
    std::optional<IntTerm> term;     // value holes
    std::optional<ShapeHole> shape;  // shape holes
  };
  std::vector<Piece> pieces_;
};

enum class Status : uint8_t { Proven, Refuted, Deferred };
const char* status_name(Status s);  // "proven", "refuted", "deferred"

// A fact that took part in a decision (an unsat core member).
struct FactRef {
  SourceLoc loc;
  std::string description;  // "assert x.shape[1] == 80", "linear_c1 checked"
};

// A proof's unsat core before it is computed (solver.h): what the proof
// used, kept so that the core is asked of Z3 only for the obligations the
// analysis prints.
struct PendingCore;

struct SlotInfo {
  int slot = -1;
  std::string description;  // "input", "weight", "tensors[1]"
  // The operand's source expression (byte range included), filled by the
  // analysis from the call site; invalid when no expression reaches it.
  // The rewriter wraps exactly this range.
  SourceLoc loc;
};

struct Obligation {
  int id = -1;              // index in the analysis' obligation list
  SourceLoc loc;            // the call site
  std::string rule;         // qualified op name: "torch.nn.Linear.forward"
  std::string tag;          // "linear_c1"
  BoolTerm constraint{true};
  Message message;
  std::vector<SlotInfo> slots;  // operands the constraint and message read

  Status status = Status::Deferred;
  std::string reason;           // deferred: why not proven ("depends on B")
  // Deferred: where the unknown it depends on comes from, when the analysis
  // traced it (cause_kind_name: "run-time data", "no rule", ...); "" otherwise.
  std::string origin;
  std::vector<std::pair<std::string, int64_t>> example;  // deferred: failing values
  std::vector<FactRef> core;    // facts that decided it (unsat core)
  // Proven by Z3: its core, until the analysis asks for it (Solver::core_of)
  // where this obligation is the one printed for its site.
  std::shared_ptr<const PendingCore> pending_core;
  // Only its refutation was checked (Solver::set_proof_filter): deferred
  // until the analysis decides it under these facts, where the output
  // depends on it (Solver::resolve_skipped).
  bool proof_skipped = false;
  std::shared_ptr<const PendingCore> skipped_facts;
  bool decided_without_z3 = false;
  bool decided_by_witness = false;  // deferred by concrete witnesses (witness.h), no Z3 check
  // Deferred, but it holds only when one of these sizes is 0 (`Linear(d, 4*d)`
  // then `Linear(3*d, d)`): a warning, since a layer or batch of size 0 is
  // almost never meant. The run-time check stays.
  std::vector<std::string> zero_only;

  // The constraint and message read only operands the runtime can reach.
  bool runtime_checkable() const;
  std::string constraint_sexpr() const { return constraint.sexpr(); }
  std::string message_template() const { return message.runtime_template(); }
  std::string render_message() const { return message.render_static(); }
  // "B = 0, C = 3" (empty when there is no example).
  std::string example_str() const;
};

// One JSON object with every field above (for --emit=obligations and reports).
void write_json(JsonWriter& out, const Obligation& ob);

}  // namespace gshape::gradual
