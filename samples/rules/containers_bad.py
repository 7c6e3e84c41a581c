"""nn.Sequential and nn.ModuleList whose members do not fit: the error is
reported at the call that runs the member (docs/gradual.md)."""
import torch
import torch.nn as nn


def case_sequential_features():
    mlp = nn.Sequential(nn.Linear(10, 20), nn.ReLU(), nn.Linear(30, 5))
    # expect-error@+1: linear_c1
    mlp(torch.zeros(2, 10))


def case_sequential_channels():
    convs = nn.Sequential(nn.Conv2d(3, 16, 3), nn.Conv2d(8, 16, 3))
    # expect-error@+1: conv2d_c2
    convs(torch.zeros(1, 3, 12, 12))


def case_module_list_index():
    layers = nn.ModuleList([nn.LayerNorm(16), nn.Linear(16, 4)])
    x = layers[1](torch.zeros(2, 16))
    # expect-error@+1: layer_norm_c3
    layers[0](x)


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
