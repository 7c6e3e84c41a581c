"""einops' rearrange / repeat / reduce written as the chain of PyTorch
operations they stand for (reshape, sum, permute, expand, reshape), with the
checks einops itself makes before it touches the tensor (einops.py,
_prepare_transformation_recipe and _reconstruct_from_shape, einops 0.6). einops
cannot be installed here; this is what gshape's einops rules are tested
against. A failure raises EinopsError (or PyTorch's own RuntimeError from the
chain)."""

import re

import torch


class EinopsError(ValueError):
    pass


def _parse_side(text):
    """[(group?, [token, ...]), ...] for one side; tokens are names, '...'
    or digit strings."""
    elements, group = [], None
    for token in re.findall(r"\.\.\.|\(|\)|[A-Za-z_][A-Za-z0-9_]*|\d+", text):
        if token == "(":
            if group is not None:
                raise EinopsError("nested parentheses")
            group = []
        elif token == ")":
            if group is None:
                raise EinopsError("unbalanced parentheses")
            elements.append((True, group))
            group = None
        elif group is not None:
            group.append(token)
        else:
            elements.append((False, [token]))
    if group is not None:
        raise EinopsError("unbalanced parentheses")
    names = [t for _, tokens in elements for t in tokens if not t.isdigit()]
    if len(names) != len(set(names)):
        raise EinopsError("an axis appears twice on one side")
    return elements


def _identifiers(elements):
    return {t for _, tokens in elements for t in tokens if not t.isdigit()}


def _anonymous(elements):
    return any(t.isdigit() and t != "1" for _, tokens in elements for t in tokens)


def _validate(op, left, right, lengths):
    li, ri = _identifiers(left), _identifiers(right)
    if "..." not in li and "..." in ri:
        raise EinopsError("Ellipsis found in right side, but not left side of a pattern")
    if any(g and "..." in tokens for g, tokens in left):
        raise EinopsError("Ellipsis inside parenthesis in the left side is not allowed")
    if op == "rearrange":
        if _anonymous(left) or _anonymous(right):
            raise EinopsError("Non-unitary anonymous axes are not supported in rearrange")
        if li != ri:
            raise EinopsError("Identifiers only on one side of expression (should be on both)")
    elif op == "repeat":
        if li - ri:
            raise EinopsError("Unexpected identifiers on the left side of repeat")
        if _anonymous(left):
            raise EinopsError("Non-unitary anonymous axes on the left of repeat")
        if {a for a in ri if a != "..."} - li - set(lengths):
            raise EinopsError("Specify sizes for new axes in repeat")
    else:
        if ri - li:
            raise EinopsError("Unexpected identifiers on the right side of reduce")
    for name in lengths:
        if name not in li and name not in ri:
            raise EinopsError("Axis %s is not used in transform" % name)
    for group, tokens in left:
        if group and len([t for t in tokens if not t.isdigit() and t not in lengths]) > 1:
            raise EinopsError("Could not infer sizes")


def apply(op, tensor, pattern, reduction="sum", **lengths):
    if pattern.count("->") != 1:
        raise EinopsError("pattern needs one '->'")
    left_text, right_text = pattern.split("->")
    left, right = _parse_side(left_text), _parse_side(right_text)
    _validate(op, left, right, lengths)
    # the axes `...` stands for get names of their own
    shape = list(tensor.shape)
    listed = len([e for e in left if e != (False, ["..."])])
    if (False, ["..."]) in left:
        if len(shape) < listed:
            raise EinopsError("Expected at least %d dimensions, got %d" % (listed, len(shape)))
        at = left.index((False, ["..."]))
        dots = ["_e%d" % i for i in range(len(shape) - listed)]
        left = left[:at] + [(False, [d]) for d in dots] + left[at + 1:]
        expanded = []
        for g, tokens in right:
            if not g and tokens == ["..."]:  # `...` alone: each of its axes stays an axis
                expanded += [(False, [d]) for d in dots]
            else:  # `(... c)`: merged into one axis
                expanded.append((g, [x for t in tokens for x in (dots if t == "..." else [t])]))
        right = expanded
    elif len(shape) != listed:
        raise EinopsError("Expected %d dimensions, got %d" % (listed, len(shape)))
    known = dict(lengths)
    elementary = []  # (name or None, length) of every axis of the left, in order
    for (group, tokens), size in zip(left, shape):
        unknown = [t for t in tokens if not t.isdigit() and t not in known]
        product = 1
        for t in tokens:
            if t.isdigit() or t in known:
                product *= int(t) if t.isdigit() else known[t]
        if not unknown:
            if size != product:
                raise EinopsError("Shape mismatch, %d != %d" % (size, product))
        else:
            if size % product != 0:
                raise EinopsError("Shape mismatch, can't divide axis of length %d in chunks of %d" % (size, product))
            known[unknown[0]] = size // product
        elementary += [(None if t.isdigit() else t, int(t) if t.isdigit() else known[t]) for t in tokens]
    # the chain: split the left groups, reduce, permute, insert new axes, merge the right groups
    x = tensor.reshape([n for _, n in elementary])
    names = [name for name, _ in elementary]
    kept = {t for _, tokens in right for t in tokens}
    drop = [i for i, name in enumerate(names) if name not in kept]
    if drop:
        x = x.sum(dim=drop) if reduction == "sum" else x.mean(dim=drop)
        names = [n for i, n in enumerate(names) if i not in drop]
    order = [names.index(t) for _, tokens in right for t in tokens if t in names]
    x = x.permute(order)
    target = []
    for _, tokens in right:
        for t in tokens:
            target.append(int(t) if t.isdigit() else known[t])
    present = [t for _, tokens in right for t in tokens]
    view = [known[t] if t in names else 1 for t in present]
    x = x.reshape(view).expand(target)
    return x.reshape([_product([int(t) if t.isdigit() else known[t] for t in tokens]) for _, tokens in right])


def _product(values):
    out = 1
    for v in values:
        out *= v
    return out


def rearrange(tensor, pattern, **lengths):
    return apply("rearrange", tensor, pattern, **lengths)


def repeat(tensor, pattern, **lengths):
    return apply("repeat", tensor, pattern, **lengths)


def reduce(tensor, pattern, reduction, **lengths):
    return apply("reduce", tensor, pattern, reduction, **lengths)


def _pack_pattern(pattern):
    names = pattern.split()
    if names.count("*") != 1:
        raise EinopsError("pack/unpack pattern needs exactly one '*'")
    star = names.index("*")
    return star, len(names) - 1 - star  # names before and after the `*`


def pack(tensors, pattern):
    """einops.pack: flatten each tensor's `*` axes, concatenate there."""
    before, after = _pack_pattern(pattern)
    shapes, flat = [], []
    for t in tensors:
        if t.dim() < before + after:
            raise EinopsError("packed tensor has %d dims, pattern needs %d" % (t.dim(), before + after))
        end = t.dim() - after
        shapes.append(tuple(t.shape[before:end]))
        flat.append(t.reshape(list(t.shape[:before]) + [-1] + list(t.shape[end:])))
    return torch.cat(flat, dim=before), shapes


def unpack(tensor, packed_shapes, pattern):
    """einops.unpack: split the `*` axis by the packed shapes' sizes."""
    before, after = _pack_pattern(pattern)
    if tensor.dim() != before + after + 1:
        raise EinopsError("unpack expects %d dims, got %d" % (before + after + 1, tensor.dim()))
    lengths = [_product(s) for s in packed_shapes]
    if sum(lengths) != tensor.shape[before]:
        raise EinopsError("the packed shapes do not add up to the packed axis")
    parts = torch.split(tensor, lengths, dim=before)
    return [p.reshape(list(tensor.shape[:before]) + list(s) + list(tensor.shape[before + 1:]))
            for p, s in zip(parts, packed_shapes)]
