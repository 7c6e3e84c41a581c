# Arithmetic in dimensions: a result axis that is the sum of two inputs'
# (`n+m`), or twice a model width (`2*d`), is stated in the annotation and
# proven from the code.
from __future__ import annotations

from typing import TYPE_CHECKING

import torch
import torch.nn as nn
from torch import Tensor

if TYPE_CHECKING:
    from jaxtyping import Float


def join(a: Float[Tensor, "b n"], b: Float[Tensor, "b m"]) -> Float[Tensor, "b n+m"]:
    return torch.cat([a, b], dim=1)


class GatedBlock(nn.Module):
    def __init__(self, d: int):
        super().__init__()
        self.up = nn.Linear(d, 2 * d)
        self.down = nn.Linear(d, d)

    def forward(self, x: Float[Tensor, "b t d"]) -> Float[Tensor, "b t d"]:
        h: Float[Tensor, "b t 2*d"] = self.up(x)
        value, gate = h.chunk(2, dim=-1)
        return x + self.down(value * torch.sigmoid(gate))


joined = join(torch.randn(8, 5), torch.randn(8, 11))
block = GatedBlock(joined.shape[1])
out = block(torch.randn(2, 7, 16))
print(joined.shape, out.shape)
