# A classifier trained on features read back from a JSON file the program
# writes: gshape cannot know the data's shape, so without annotations every
# layer's requirement waits for run time. The annotation on forward states
# the input once; gshape proves every layer from it and checks only the
# annotation itself, at forward's entry.
from __future__ import annotations

import json
import os
import tempfile
from typing import TYPE_CHECKING

import torch
import torch.nn as nn
from torch import Tensor

if TYPE_CHECKING:  # jaxtyping need not be installed to run this
    from jaxtyping import Float, Int


class Classifier(nn.Module):
    def __init__(self, features: int, hidden: int, classes: int):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(features, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU())
        self.head = nn.Linear(hidden, classes)

    def forward(self, x: Float[Tensor, "batch 20"]) -> Float[Tensor, "batch 3"]:
        h = self.body(x)
        return self.head(h)


def load(path: str):
    with open(path) as f:
        rows = json.load(f)
    return torch.tensor([r["x"] for r in rows]), torch.tensor([r["y"] for r in rows])


def train(x: Float[Tensor, "n 20"], y: Int[Tensor, "n"]) -> None:
    model = Classifier(20, 32, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(3):
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        opt.zero_grad()
        loss.backward()
        opt.step()


path = os.path.join(tempfile.mkdtemp(), "data.json")
with open(path, "w") as f:
    json.dump([{"x": [float(i % 7)] * 20, "y": i % 3} for i in range(64)], f)
features, labels = load(path)
train(features, labels)
# expect-deferred: 2
