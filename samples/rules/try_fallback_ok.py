"""A shape error inside `try: ... except RuntimeError:` (or `except
Exception:`, a bare `except:`) is handled by the program: gshape reports
it as a warning, with a note at the handler, not as an error. Its run-time
check stays: ShapeCheckError is raised as the class PyTorch raises (a
RuntimeError here), so the handler catches it as it catches PyTorch's error. Every case runs under PyTorch."""
import torch
import torch.nn as nn


def case_fallback_on_runtime_error():
    x = torch.randn(4, 3)
    w = torch.randn(5, 6)
    try:
        y = x @ w  # expect-warning: matmul_c2
    except RuntimeError:
        y = x @ torch.randn(3, 6)
    return y


def case_fallback_on_exception():
    layer = nn.Linear(10, 2)
    try:
        return layer(torch.randn(4, 12))  # expect-warning: linear_c1
    except Exception:
        return None


def case_bare_except():
    try:
        torch.randn(2, 3).view(7)  # expect-warning: view_c5
    except:  # noqa: E722
        pass


def case_tuple_of_handlers():
    try:
        torch.cat([torch.randn(2, 3), torch.randn(2, 4)])  # expect-warning: cat_c5  expect-help: cat_dim
    except (ValueError, RuntimeError):
        pass


def case_an_index_error_caught_as_such():
    # PyTorch raises IndexError for a dim out of range, ValueError for a
    # loss's batch mismatch: those handlers catch them (and the checks)
    try:
        torch.randn(2, 3).transpose(0, 4)  # expect-warning: transpose_c2
    except IndexError:
        pass
    try:
        torch.nn.functional.cross_entropy(torch.randn(4, 3), torch.zeros(5, dtype=torch.long))  # expect-warning: cross_entropy_c4
    except ValueError:
        pass


def checked_elsewhere(x):
    return x.view(7)


def case_a_callee_failing_is_not_the_try_around_the_call():
    # the op is not written in the try body: an error in checked_elsewhere
    # would be reported wherever its caller is not guarded (here, nowhere)
    try:
        checked_elsewhere(torch.randn(7))
    except RuntimeError:
        pass
