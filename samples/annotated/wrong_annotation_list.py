# A value that is not a tensor passed where an annotation wants one: the
# points come back from JSON as nested lists. The function converts them
# itself, so plain PyTorch runs the program; jaxtyping would reject the
# call, and so does gshape's entry check (`gshape run` stops at `centre`).
from __future__ import annotations

import json
from typing import TYPE_CHECKING

import torch
from torch import Tensor

if TYPE_CHECKING:
    from jaxtyping import Float


def centre(points: Float[Tensor, "n 2"]) -> Float[Tensor, "n 2"]:
    points = torch.as_tensor(points)
    return points - points.mean(dim=0)


print(centre(torch.randn(5, 2)).shape)
print(centre(json.loads("[[1.0, 2.0], [3.0, 4.0]]")).shape)
# expect-deferred: 1
