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
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
