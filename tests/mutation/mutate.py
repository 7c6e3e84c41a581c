#!/usr/bin/env python3
"""Deterministic mutant generation for the gradual-guarantee harness.

A *site* is a place where an integer literal decides a shape: an argument of
a shape-relevant PyTorch call (layer constructors, tensor methods, creation
functions, torch.nn.functional ops), an index of a subscript, an argument
of a call to an nn.Module subclass defined in the same file, a default of a
parameter of such a class's methods or of a top-level function, an int
field of a @dataclass, or an assignment of int constants (`hid = 32`,
`vocab, batch = 40, 6`). Every integer literal of a site (a `-1` written
with its sign counts as one literal) gives mutants that replace exactly
that literal's bytes; the rest of the file stays byte-identical:

- value + 1; value - 1 when the value is positive (or for dims and indices,
  where negative values mean something);
- value * 2;
- for a dim argument (`dim=`, `cat`/`stack`/`softmax`/`transpose`/...
  dims, `x.shape[i]`, `x.size(i)`) and a subscript index: the neighbouring
  dims value - 1 and value + 1 (so 0 -> -1 and -1 -> 0, -2).

Mutants are deduplicated and sorted; each is identified by
(base file, line, column, old text, new text), written as
`base.py:LINE:COL:OLD->NEW` (line and column 1-based, column in characters).

Usage (lists the mutants of some files):  mutate.py FILE...
Stdlib only.
"""
import ast
import io
import os
import re
import sys
import tokenize
from dataclasses import dataclass, field

# ---------------------------------------------------------------------------
# What is shape relevant (one place)

# nn.* constructors whose integer arguments are sizes, kernel shapes, counts
NN_CONSTRUCTORS = {
    "Linear", "Bilinear", "LazyLinear",
    "Conv1d", "Conv2d", "Conv3d", "ConvTranspose1d", "ConvTranspose2d", "ConvTranspose3d",
    "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "LayerNorm", "GroupNorm",
    "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d", "LocalResponseNorm",
    "Embedding", "EmbeddingBag",
    "LSTM", "GRU", "RNN", "LSTMCell", "GRUCell", "RNNCell",
    "MultiheadAttention", "Transformer", "TransformerEncoderLayer", "TransformerDecoderLayer",
    "TransformerEncoder", "TransformerDecoder",
    "MaxPool1d", "MaxPool2d", "MaxPool3d", "AvgPool1d", "AvgPool2d", "AvgPool3d",
    "AdaptiveAvgPool1d", "AdaptiveAvgPool2d", "AdaptiveAvgPool3d",
    "AdaptiveMaxPool1d", "AdaptiveMaxPool2d", "AdaptiveMaxPool3d",
    "Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d", "PixelShuffle", "PixelUnshuffle",
    "Flatten", "Unflatten", "Softmax", "LogSoftmax", "Softmin", "GLU", "CosineSimilarity",
    "PReLU", "Fold", "Unfold", "ZeroPad2d", "ConstantPad1d", "ConstantPad2d", "ConstantPad3d",
    "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d",
}

# tensor methods and torch.* / F.* functions with shape-relevant int arguments
TENSOR_OPS = {
    "view", "reshape", "flatten", "unflatten", "permute", "transpose", "swapaxes", "swapdims",
    "squeeze", "unsqueeze", "expand", "repeat", "repeat_interleave", "tile", "narrow", "select",
    "index_select", "gather", "scatter", "scatter_add", "split", "chunk", "unbind", "cat", "concat",
    "stack", "sum", "mean", "prod", "std", "var", "norm", "max", "min", "amax", "amin", "argmax",
    "argmin", "logsumexp", "cumsum", "cumprod", "softmax", "log_softmax", "topk", "sort", "argsort",
    "flip", "roll", "movedim", "moveaxis", "diagonal", "triu", "tril", "size", "new_zeros",
    "new_ones", "new_empty", "new_full", "unfold", "matmul", "mm", "bmm", "einsum", "tensordot",
    "all", "any", "median", "kthvalue", "diff", "take_along_dim", "broadcast_to",
}
CREATION = {"zeros", "ones", "empty", "rand", "randn", "randint", "arange", "full", "eye",
            "linspace", "randperm", "range"}
FUNCTIONAL = {
    "linear", "bilinear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "max_pool1d", "max_pool2d", "max_pool3d", "avg_pool1d", "avg_pool2d",
    "avg_pool3d", "adaptive_avg_pool1d", "adaptive_avg_pool2d", "adaptive_avg_pool3d",
    "adaptive_max_pool1d", "adaptive_max_pool2d", "interpolate", "upsample", "pad", "pixel_shuffle",
    "pixel_unshuffle", "one_hot", "embedding", "softmax", "log_softmax", "softmin", "normalize",
    "cosine_similarity", "unfold", "fold", "layer_norm", "group_norm", "glu", "batch_norm",
}

# keyword arguments that are values, not shapes (never mutated)
VALUE_KEYWORDS = {
    "fill_value", "value", "low", "high", "generator", "momentum", "eps", "negative_slope", "p",
    "dropout", "max_norm", "norm_type", "ignore_index", "beta", "threshold", "lr", "seed",
    "requires_grad", "inplace", "bias", "batch_first", "bidirectional", "affine",
    "track_running_stats", "align_corners", "ceil_mode", "count_include_pad", "keepdim",
    "return_indices", "need_weights", "average_attn_weights", "descending", "largest", "sorted",
}

# dim arguments: keywords, and positional indices per operation (method form;
# the torch./F. function form shifts them by one for the input tensor)
DIM_KEYWORDS = {"dim", "dim0", "dim1", "dims", "start_dim", "end_dim", "axis", "source",
                "destination", "dim2"}
DIM_POSITIONS = {
    "transpose": "all", "swapaxes": "all", "swapdims": "all", "permute": "all",
    "movedim": "all", "moveaxis": "all", "flip": "all",
    "squeeze": (0,), "unsqueeze": (0,), "softmax": (0,), "log_softmax": (0,), "softmin": (0,),
    "sum": (0,), "mean": (0,), "prod": (0,), "std": (0,), "var": (0,), "amax": (0,), "amin": (0,),
    "argmax": (0,), "argmin": (0,), "max": (0,), "min": (0,), "logsumexp": (0,), "cumsum": (0,),
    "cumprod": (0,), "all": (0,), "any": (0,), "median": (0,), "sort": (0,), "argsort": (0,),
    "unbind": (0,), "size": (0,), "glu": (0,), "normalize": (1,), "diff": (1,),
    "flatten": (0, 1), "unflatten": (0,), "narrow": (0,), "select": (0,), "index_select": (0,),
    "gather": (0,), "scatter": (0,), "scatter_add": (0,),
    "split": (1,), "chunk": (1,), "topk": (1,), "kthvalue": (1,), "roll": (1,), "norm": (1,),
    "diagonal": (1, 2), "take_along_dim": (1,),
    "cat": (1,), "concat": (1,), "stack": (1,),       # always function form (tensors first)
    "cosine_similarity": (2,),                          # F.cosine_similarity(x1, x2, dim)
    "Softmax": (0,), "LogSoftmax": (0,), "Softmin": (0,), "Flatten": (0, 1), "Unflatten": (0,),
    "GLU": (0,), "CosineSimilarity": (0,),
}
FUNCTION_ONLY = {"cat", "concat", "stack", "cosine_similarity"}
# positional arguments that are values (never mutated), as (name, form) -> indices
VALUE_POSITIONS = {
    ("full", "function"): (1,), ("new_full", "method"): (1,), ("pad", "function"): (2, 3),
    ("masked_fill", "method"): (1,), ("clamp", "method"): (0, 1),
}

NAMESPACE_ROOTS = {"torch", "F", "nn", "functional", "init"}


def callee(node):
    """(dotted name or None, last name) of a call's function."""
    parts = []
    f = node.func
    while isinstance(f, ast.Attribute):
        parts.append(f.attr)
        f = f.value
    if isinstance(f, ast.Name):
        parts.append(f.id)
        dotted = ".".join(reversed(parts))
    else:
        dotted = None
    last = node.func.attr if isinstance(node.func, ast.Attribute) else (
        node.func.id if isinstance(node.func, ast.Name) else None)
    return dotted, last


def call_form(node):
    """'function' for torch.x(...)/F.x(...)/nn.functional.x(...), else 'method'."""
    dotted, _ = callee(node)
    if dotted is None or "." not in dotted:
        return "function" if isinstance(node.func, ast.Name) else "method"
    root = dotted.split(".")[0]
    return "function" if root in NAMESPACE_ROOTS else "method"


# ---------------------------------------------------------------------------
# Literals and mutants

@dataclass(frozen=True, order=True)
class Mutant:
    base: str          # file name of the base program (no folder)
    line: int          # 1-based
    col: int           # 1-based, in characters
    old: str           # the literal's text as written
    new: str           # its replacement
    kind: str = field(compare=False, default="")       # op-arg, dim, index, ctor-arg, default, const
    site: str = field(compare=False, default="")       # e.g. nn.Linear, x.view
    start: int = field(compare=False, default=0)       # byte offsets of the literal in the base
    end: int = field(compare=False, default=0)

    @property
    def id(self):
        return f"{self.base}:{self.line}:{self.col}:{self.old}->{self.new}"


@dataclass
class Literal:
    node: ast.AST
    value: int
    kind: str
    site: str


def int_literal(node):
    """The int value of `N` or `-N` (not a bool), else None."""
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
            and isinstance(node.operand, ast.Constant) and type(node.operand.value) is int):
        return -node.operand.value
    return None


def literals_in(expr):
    """Integer literals inside an expression, not descending into nested calls,
    subscripts, lambdas or comprehensions (those are sites of their own)."""
    out = []

    def walk(n):
        v = int_literal(n)
        if v is not None:
            out.append((n, v))
            return
        if isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return
        if isinstance(n, (ast.Call, ast.Subscript)):
            return
        for child in ast.iter_child_nodes(n):
            walk(child)

    walk(expr)
    return out


def mutant_values(value, is_dim):
    vals = [value + 1]
    if value > 0 or value < 0 or is_dim:
        vals.append(value - 1)
    if value not in (0, 1):
        vals.append(value * 2)
    return [v for v in dict.fromkeys(vals) if v != value]


class SiteFinder(ast.NodeVisitor):
    def __init__(self, tree):
        self.literals = []
        self.module_classes = self._module_classes(tree)
        self.class_stack = []
        self.func_depth = 0

    @staticmethod
    def _module_classes(tree):
        """Names of classes in this file deriving (transitively) from nn.Module."""
        classes = {n.name: n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)}
        result = set()
        changed = True
        while changed:
            changed = False
            for name, node in classes.items():
                if name in result:
                    continue
                for b in node.bases:
                    text = ast.unparse(b)
                    if text.split(".")[-1] == "Module" or text in result:
                        result.add(name)
                        changed = True
                        break
        return result

    def add(self, node, value, kind, site):
        self.literals.append(Literal(node, value, kind, site))

    # -- calls
    def visit_Call(self, node):
        dotted, last = callee(node)
        site = dotted or (last or "?")
        form = call_form(node)
        relevant = None
        if last in NN_CONSTRUCTORS and (dotted is None or "." not in dotted
                                        or dotted.split(".")[0] in ("nn", "torch")):
            relevant = "op-arg"
        elif last in CREATION and form == "function" and dotted and dotted.startswith("torch."):
            relevant = "op-arg"
        elif last in FUNCTIONAL and form == "function" and dotted and dotted.split(".")[0] in NAMESPACE_ROOTS:
            relevant = "op-arg"
        elif last in TENSOR_OPS and (form == "method" or (dotted and dotted.startswith("torch."))):
            relevant = "op-arg"
        elif last in self.module_classes and isinstance(node.func, ast.Name):
            relevant = "ctor-arg"
        if relevant:
            self._call_args(node, last, form, site, relevant)
        self.generic_visit(node)

    def _call_args(self, node, name, form, site, kind):
        shift = 1 if (form == "function" and name not in FUNCTION_ONLY
                      and name not in NN_CONSTRUCTORS and kind == "op-arg") else 0
        dims = DIM_POSITIONS.get(name, ())
        values = VALUE_POSITIONS.get((name, form), ())
        positional = [a for a in node.args]
        if name == "randint" and form == "function":
            # randint(high, size) / randint(low, high, size): only the size is a shape
            size_index = 1 if len(positional) == 2 else 2
            values = tuple(i for i in range(len(positional)) if i != size_index)
        for i, arg in enumerate(positional):
            if isinstance(arg, ast.Starred):
                arg = arg.value
            if i in values:
                continue
            j = i - shift
            is_dim = kind == "op-arg" and (dims == "all" and j >= 0 or (dims != "all" and j in dims))
            for lit, v in literals_in(arg):
                self.add(lit, v, "dim" if is_dim else kind, site)
        for kw in node.keywords:
            if kw.arg is None or kw.arg in VALUE_KEYWORDS:
                continue
            is_dim = kw.arg in DIM_KEYWORDS and kind == "op-arg"
            for lit, v in literals_in(kw.value):
                self.add(lit, v, "dim" if is_dim else kind, f"{site}({kw.arg}=)")

    # -- subscripts
    def visit_Subscript(self, node):
        value = node.value
        is_shape = (isinstance(value, ast.Attribute) and value.attr == "shape") or (
            isinstance(value, ast.Call) and callee(value)[1] == "size" and not value.args)
        if not (isinstance(value, ast.Attribute) and value.attr in ("argv", "environ")):
            site = ast.unparse(value) + "[]"
            for lit, v in literals_in(node.slice):
                self.add(lit, v, "dim" if is_shape else "index", site)
        self.generic_visit(node)

    # -- definitions
    def visit_ClassDef(self, node):
        is_dataclass = any(ast.unparse(d).split("(")[0].split(".")[-1] == "dataclass"
                           for d in node.decorator_list)
        if is_dataclass:
            for stmt in node.body:
                if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
                    for lit, v in literals_in(stmt.value):
                        self.add(lit, v, "default", f"{node.name}.{ast.unparse(stmt.target)}")
        self.class_stack.append(node.name)
        self.generic_visit(node)
        self.class_stack.pop()

    def _defaults(self, node):
        in_module_class = bool(self.class_stack) and self.class_stack[-1] in self.module_classes
        top_level = not self.class_stack and self.func_depth == 0
        if in_module_class or top_level:
            a = node.args
            params = a.posonlyargs + a.args
            pairs = list(zip(params[len(params) - len(a.defaults):], a.defaults))
            pairs += [(p, d) for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None]
            owner = (self.class_stack[-1] + "." if self.class_stack else "") + node.name
            for p, d in pairs:
                for lit, v in literals_in(d):
                    self.add(lit, v, "default", f"{owner}({p.arg}=)")

    def visit_FunctionDef(self, node):
        self._defaults(node)
        self.func_depth += 1
        self.generic_visit(node)
        self.func_depth -= 1

    visit_AsyncFunctionDef = visit_FunctionDef

    # -- int constants assigned to names (hid = 32; vocab, batch = 40, 6)
    def visit_Assign(self, node):
        v = node.value
        elts = v.elts if isinstance(v, ast.Tuple) else [v]
        if all(int_literal(e) is not None for e in elts) and all(
                isinstance(t, (ast.Name, ast.Tuple)) for t in node.targets):
            names = ast.unparse(node.targets[-1])
            if not re.search(r"seed|epoch|step|iter|log|print|verbose", names, re.I):
                for e in elts:
                    self.add(e, int_literal(e), "const", names)
        self.generic_visit(node)


def _line_starts(data):
    starts = [0]
    for i, b in enumerate(data):
        if b == 0x0A:
            starts.append(i + 1)
    return starts


def number_tokens(text):
    """Set of (line, char col) of decimal integer NUMBER tokens."""
    out = set()
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        if tok.type == tokenize.NUMBER and re.fullmatch(r"[0-9][0-9_]*", tok.string):
            out.add(tok.start)
    return out


def mutants_of_source(base, data):
    """All mutants of one program (bytes), sorted and deduplicated."""
    text = data.decode("utf-8")
    tree = ast.parse(text)
    numbers = number_tokens(text)
    starts = _line_starts(data)
    lines = text.splitlines(keepends=True)
    finder = SiteFinder(tree)
    finder.visit(tree)
    seen = {}
    for lit in finder.literals:
        n = lit.node
        num = n.operand if isinstance(n, ast.UnaryOp) else n
        # the number itself must be a decimal NUMBER token (char column from byte column)
        line_bytes = lines[num.lineno - 1].encode("utf-8")
        num_char_col = len(line_bytes[:num.col_offset].decode("utf-8"))
        if (num.lineno, num_char_col) not in numbers:
            continue
        if n.lineno != n.end_lineno:
            continue
        start = starts[n.lineno - 1] + n.col_offset
        end = starts[n.end_lineno - 1] + n.end_col_offset
        old = data[start:end].decode("utf-8")
        line_text = lines[n.lineno - 1].encode("utf-8")
        col = len(line_text[:n.col_offset].decode("utf-8")) + 1
        is_dim = lit.kind in ("dim", "index")
        for nv in mutant_values(lit.value, is_dim):
            new = str(nv)
            m = Mutant(base, n.lineno, col, old, new, lit.kind, lit.site, start, end)
            if m.id not in seen:
                seen[m.id] = m
    result = []
    for m in sorted(seen.values()):
        try:
            ast.parse(apply(data, m))
        except SyntaxError:
            continue
        result.append(m)
    return result


def mutants_of_file(path):
    with open(path, "rb") as f:
        data = f.read()
    return mutants_of_source(os.path.basename(path), data)


def apply(data, mutant):
    """The mutant's bytes: the base with one literal replaced."""
    return data[:mutant.start] + mutant.new.encode("utf-8") + data[mutant.end:]


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    total = 0
    for path in argv[1:]:
        ms = mutants_of_file(path)
        total += len(ms)
        for m in ms:
            print(f"{m.id}\t{m.kind}\t{m.site}")
    print(f"{total} mutants", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
