# A local annotation: the features come back from torch.load, whose result
# gshape cannot know. Annotating the assignment states their shape once; it
# is checked right there at run time, and the layers after it are proven.
from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING

import torch
import torch.nn as nn
from torch import Tensor

if TYPE_CHECKING:
    from jaxtyping import Float

path = os.path.join(tempfile.mkdtemp(), "features.pt")
torch.save(torch.randn(50, 64), path)

feats: Float[Tensor, "n 64"] = torch.load(path)
probe = nn.Sequential(nn.Linear(64, 16), nn.Tanh(), nn.Linear(16, 2))
scores = probe(feats)
best = scores.argmax(dim=1)
print(best.shape)
# expect-deferred: 1
