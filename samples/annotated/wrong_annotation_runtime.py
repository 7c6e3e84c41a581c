# A wrong annotation caught at run time: the embedding table is read from a
# JSON file the program writes, 48 wide, while forward's annotation says 64.
# gshape cannot know the width before the file is read, so it proves the
# layers from the annotation and checks the annotation at forward's entry:
# `gshape run` stops there with a ShapeCheckError naming the annotation.
from __future__ import annotations

import json
import os
import tempfile
from typing import TYPE_CHECKING

import torch
import torch.nn as nn
from torch import Tensor

if TYPE_CHECKING:
    from jaxtyping import Float


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 1)

    def forward(self, emb: Float[Tensor, "n 64"]) -> Float[Tensor, "n 1"]:
        return torch.sigmoid(self.fc(emb))


path = os.path.join(tempfile.mkdtemp(), "emb.json")
with open(path, "w") as f:
    json.dump([[0.1] * 48 for _ in range(10)], f)
with open(path) as f:
    table = torch.tensor(json.load(f))
print(Scorer()(table).shape)
# expect-deferred: 1
