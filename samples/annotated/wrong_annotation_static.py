# A wrong annotation found statically: the function promises [b, 2*d] but
# returns the mean over the feature axis. Plain PyTorch runs this program;
# gshape reports the broken promise at the return, and `gshape run` stops
# there too.
from __future__ import annotations

from typing import TYPE_CHECKING

import torch
from torch import Tensor

if TYPE_CHECKING:
    from jaxtyping import Float


def summarise(x: Float[Tensor, "b d"]) -> Float[Tensor, "b 2*d"]:
    stats = torch.stack([x.mean(dim=1), x.std(dim=1)], dim=1)
    return stats  # expect-error: annotation_c4


print(summarise(torch.randn(4, 2)).shape, summarise(torch.randn(4, 9)).shape)
