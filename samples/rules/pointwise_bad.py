"""Element-wise ops, each constraint violated once."""
import torch
import torch.nn.functional as F


def case_broadcast():
    x = torch.zeros(2, 3)
    # expect-error@+1: broadcast_c1
    x + torch.zeros(4)


def case_inplace():
    x = torch.zeros(3)
    # expect-error@+1: inplace_c1
    x.add_(torch.zeros(2, 3))


def case_dropout():
    x = torch.zeros(2, 3)
    # expect-error@+1: dropout_c1
    F.dropout(x, 1.5)


def case_clamp():
    x = torch.zeros(2, 3)
    # expect-error@+1: clamp_c1
    torch.clamp(x)


def case_where():
    x = torch.zeros(2, 3)
    # expect-error@+1: where_c1
    torch.where(torch.zeros(4, dtype=torch.bool), x, x)


def case_masked_fill():
    x = torch.zeros(2, 3)
    # expect-error@+1: masked_fill_c1
    x.masked_fill(torch.zeros(4, dtype=torch.bool), 0.0)


def case_masked_fill_value():
    x = torch.zeros(2, 3)
    # expect-error@+1: masked_fill_c2
    x.masked_fill(torch.zeros(3, dtype=torch.bool), torch.zeros(3))


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import inspect
    import sys
    import traceback

    wrong = 0
    for name, case in list(globals().items()):
        if not name.startswith("case_"):
            continue
        lines, first = inspect.getsourcelines(case)
        last = first + len(lines) - 1
        try:
            case()
            print(f"{name}: no error")
            wrong += 1
        except Exception as e:  # any PyTorch error: the check is where it happens
            at = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.name == name]
            if at != [last]:
                print(f"{name}: failed at line {at}, not {last}: {e}")
                wrong += 1
    sys.exit(1 if wrong else 0)
