"""Removes what the rewriter inserted, to compare with the original text.

Written from the wrapper syntax in docs/instrumentation.md, independently of
the C++ inserter: it finds the runtime header and each wrapper call by its
spelling, matches brackets with a small scanner that skips strings and
comments, and undoes one wrapper at a time, leftmost first (so the text before
the wrapper being undone is always original text):

  T.F(S, K, expr)                 plain
  T.F(S, K, (expr))               parenthesized: expr is a tuple, walrus,
                                  lambda, conditional expression or yield
  (T.F(S, K, (x for x in y),))    the generator that is a call's argument list
  (T.F(S, K, target,), value)[1]  the target of an augmented assignment (a name, attribute, subscript)
  T.F(S, K, R.index[a:b, i])      a subscript's index holding a slice

where T is _gshape_checks, R is _gshape_rt and F is stash or check. A wrapper is preceded by one
inserted space when the nearest non-blank character before it on its line is
an identifier character.
"""

import ast
import re

TABLE = "_gshape_checks"
INDEX = "_gshape_rt.index["
HEADER_START = "import gshape_runtime as _gshape_rt; _gshape_checks = _gshape_rt.CheckTable("
WRAPPER = re.compile(r"_gshape_checks\.(?:stash|check)\((\d+), (\d+), ")
PARENTHESIZED_KINDS = (ast.Tuple, ast.NamedExpr, ast.Lambda, ast.IfExp, ast.Yield, ast.YieldFrom)


class StripError(Exception):
    pass


def _skip_string(text, i):
    """Index just past the string literal whose opening quote is at i."""
    quote = text[i]
    triple = text[i:i + 3] == quote * 3
    delimiter = quote * 3 if triple else quote
    j = i + len(delimiter)
    while j < len(text):
        c = text[j]
        if c == "\\":
            j += 2
            continue
        if text.startswith(delimiter, j):
            return j + len(delimiter)
        if not triple and c in "\r\n":
            raise StripError("unterminated string at %d" % i)
        j += 1
    raise StripError("unterminated string at %d" % i)


def matching_bracket(text, i):
    """Index of the bracket closing the one at i (code context)."""
    pairs = {"(": ")", "[": "]", "{": "}"}
    stack = [pairs[text[i]]]
    j = i + 1
    while j < len(text):
        c = text[j]
        if c in "'\"":
            j = _skip_string(text, j)
            continue
        if c == "#":
            while j < len(text) and text[j] not in "\r\n":
                j += 1
            continue
        if c in pairs:
            stack.append(pairs[c])
        elif c in ")]}":
            if c != stack[-1]:
                raise StripError("unbalanced %r at %d" % (c, j))
            stack.pop()
            if not stack:
                return j
        j += 1
    raise StripError("unclosed bracket at %d" % i)


def _is_identifier_char(c):
    return c.isalnum() or c == "_" or ord(c) >= 0x80


def _inserted_space_before(text, at):
    """Whether text[at-1] is the space the rewriter puts before a wrapper at `at`."""
    if at == 0 or text[at - 1] != " ":
        return False
    k = at - 2
    while k >= 0 and text[k] in " \t\f":
        k -= 1
    return k >= 0 and text[k] not in "\r\n" and _is_identifier_char(text[k])


def _line_start(text, at):
    k = at
    while k > 0 and text[k - 1] not in "\r\n":
        k -= 1
    return k


def strip_header(text):
    start = text.find(HEADER_START)
    if start < 0:
        return text
    end = matching_bracket(text, start + len(HEADER_START) - 1) + 1
    before = text[_line_start(text, start):start]
    if before in ("", "\ufeff"):
        rest = text[end:]
        if rest.startswith("; "):
            end += 2  # before a simple statement
        elif rest.startswith("  ") and rest[2:].lstrip(" \t\f").startswith("#"):
            end += 2  # on a comment line
        return text[:start] + text[end:]
    if not text[:start].endswith("; "):
        raise StripError("runtime header after something else than '; '")
    return text[:start - 2] + text[end:]


def _undo_one(text, match):
    start = match.start()
    call_open = start + len(TABLE) + 1 + text[start + len(TABLE) + 1:].index("(")
    close = matching_bracket(text, call_open)
    body_start = match.end()
    if text[close - 1] == ",":
        if start == 0 or text[start - 1] != "(":
            raise StripError("marker ',)' without its opening parenthesis at %d" % start)
        outer = start - 1
        if text.startswith(", ", close + 1):  # (T.F(S, K, name,), value)[1]
            name = text[body_start:close - 1]
            try:
                target = ast.parse(name, mode="eval").body
            except SyntaxError:
                target = None
            if not isinstance(target, (ast.Name, ast.Attribute, ast.Subscript)):
                raise StripError("second reference to %r, not a name, attribute or subscript" % name)
            tuple_close = matching_bracket(text, outer)
            if text[tuple_close + 1:tuple_close + 4] != "[1]":
                raise StripError("second reference without [1] at %d" % tuple_close)
            text = text[:tuple_close] + text[tuple_close + 4:]
            text = text[:outer] + text[close + 3:]
        elif text[close + 1:close + 2] == ")":  # (T.F(S, K, (gen),))
            text = text[:close - 1] + text[close + 2:]
            text = text[:outer] + text[body_start:]
        else:
            raise StripError("unknown wrapper form at %d" % start)
        start = outer
    elif text.startswith(INDEX, body_start) and matching_bracket(text, body_start + len(INDEX) - 1) == close - 1:
        text = text[:close - 1] + text[close + 1:]  # R.index[...]): drop "])"
        text = text[:start] + text[body_start + len(INDEX):]
    else:
        inner_open = body_start
        parenthesized = False
        if text[inner_open:inner_open + 1] == "(" and matching_bracket(text, inner_open) == close - 1:
            try:
                node = ast.parse("(" + text[inner_open + 1:close - 1] + ")", mode="eval").body
            except SyntaxError:
                node = None
            parenthesized = isinstance(node, PARENTHESIZED_KINDS)
        if parenthesized:
            text = text[:close - 1] + text[close + 1:]
            text = text[:start] + text[body_start + 1:]
        else:
            text = text[:close] + text[close + 1:]
            text = text[:start] + text[body_start:]
    if _inserted_space_before(text, start):
        text = text[:start - 1] + text[start:]
    return text


def strip(text):
    """The original text of an instrumented file."""
    text = strip_header(text)
    while True:
        match = WRAPPER.search(text)
        if not match:
            return text
        text = _undo_one(text, match)


def strip_bytes(data, encoding="utf-8"):
    """strip() on bytes; latin-1 keeps every byte as it is."""
    return strip(data.decode(encoding, "surrogateescape")).encode(encoding, "surrogateescape")
