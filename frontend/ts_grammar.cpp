#include "frontend/ts_grammar.h"

#include <cstring>
#include <string_view>

extern "C" const TSLanguage* tree_sitter_python();

namespace gshape::ts {

namespace {

struct SymbolName {
  Sym sym;
  const char* name;
  bool named;
};

constexpr SymbolName kSymbolNames[] = {
#define GSHAPE_TS_ENTRY(e, name, named) {Sym::e, name, named},
    GSHAPE_TS_SYMBOLS(GSHAPE_TS_ENTRY)
#undef GSHAPE_TS_ENTRY
};

}  // namespace

Grammar::Grammar() : language_(tree_sitter_python()) {
  uint32_t abi = ts_language_version(language_);
  if (abi < TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION || abi > TREE_SITTER_LANGUAGE_VERSION) {
    load_error_ = "the tree-sitter-python grammar has language ABI " + std::to_string(abi) +
                  " but this tree-sitter library loads ABI " +
                  std::to_string(TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION) + " to " +
                  std::to_string(TREE_SITTER_LANGUAGE_VERSION);
    return;
  }

  // Several internal symbols can share one public name (aliases, duplicated
  // tokens): map every symbol id by its name so each of them is recognised.
  uint32_t count = ts_language_symbol_count(language_);
  table_.assign(count, Sym::Other);
  std::vector<bool> found(std::size(kSymbolNames), false);
  for (uint32_t id = 0; id < count; ++id) {
    TSSymbol symbol = static_cast<TSSymbol>(id);
    const char* name = ts_language_symbol_name(language_, symbol);
    if (name == nullptr) continue;
    TSSymbolType type = ts_language_symbol_type(language_, symbol);
    if (type == TSSymbolTypeAuxiliary) continue;
    bool named = type == TSSymbolTypeRegular;
    for (std::size_t k = 0; k < std::size(kSymbolNames); ++k) {
      if (kSymbolNames[k].named == named && std::strcmp(kSymbolNames[k].name, name) == 0) {
        table_[id] = kSymbolNames[k].sym;
        found[k] = true;
        break;
      }
    }
  }
  for (std::size_t k = 0; k < std::size(kSymbolNames); ++k) {
    if (!found[k]) {
      load_error_ = std::string("the tree-sitter-python grammar has no node type '") + kSymbolNames[k].name +
                    "' (expected grammar 0.23.6)";
      return;
    }
  }

  auto field = [&](const char* name) -> TSFieldId {
    TSFieldId id = ts_language_field_id_for_name(language_, name, static_cast<uint32_t>(std::strlen(name)));
    if (id == 0 && load_error_.empty()) {
      load_error_ = std::string("the tree-sitter-python grammar has no field '") + name +
                    "' (expected grammar 0.23.6)";
    }
    return id;
  };
#define GSHAPE_TS_FIELD_INIT(member, name) fields_.member = field(name);
  GSHAPE_TS_FIELDS(GSHAPE_TS_FIELD_INIT)
#undef GSHAPE_TS_FIELD_INIT
}

const Grammar& Grammar::python() {
  static const Grammar grammar;  // thread-safe one-time initialisation
  return grammar;
}

namespace {

// Owns one thread's parser and deletes it when the thread ends.
struct ThreadParser {
  TSParser* parser = nullptr;
  std::string error;
  ThreadParser() {
    const Grammar& grammar = Grammar::python();
    if (!grammar.load_error().empty()) {
      error = grammar.load_error();
      return;
    }
    parser = ts_parser_new();
    if (!ts_parser_set_language(parser, grammar.language())) {
      error = "tree-sitter refused the tree-sitter-python grammar (language ABI " +
              std::to_string(ts_language_version(grammar.language())) + ")";
      ts_parser_delete(parser);
      parser = nullptr;
    }
  }
  ~ThreadParser() {
    if (parser != nullptr) ts_parser_delete(parser);
  }
  ThreadParser(const ThreadParser&) = delete;
  ThreadParser& operator=(const ThreadParser&) = delete;
};

}  // namespace

TSParser* thread_parser(std::string* error) {
  thread_local ThreadParser holder;
  if (holder.parser == nullptr && error != nullptr) *error = holder.error;
  return holder.parser;
}

}  // namespace gshape::ts
