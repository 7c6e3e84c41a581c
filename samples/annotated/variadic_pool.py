# Variadic batch dimensions: `*batch` matches any number of leading axes,
# the same ones in every annotation of the function, so the masked mean's
# result keeps exactly the batch axes of its input.
from __future__ import annotations

from typing import TYPE_CHECKING

import torch
from torch import Tensor

if TYPE_CHECKING:
    from jaxtyping import Bool, Float


def masked_mean(x: Float[Tensor, "*batch n d"], mask: Bool[Tensor, "*batch n"]) -> Float[Tensor, "*batch d"]:
    weights = mask.unsqueeze(-1).float()
    total = (x * weights).sum(dim=-2)
    count = weights.sum(dim=-2).clamp(min=1.0)
    return total / count


tokens = torch.randn(4, 6, 10, 32)
keep = torch.rand(4, 6, 10) > 0.5
pooled = masked_mean(tokens, keep)
flat = masked_mean(torch.randn(10, 32), torch.ones(10, dtype=torch.bool))
print(pooled.shape, flat.shape)
