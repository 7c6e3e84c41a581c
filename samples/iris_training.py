"""Training on data whose shapes no analysis can know: the measurements and
labels are decoded from JSON text at run time, as a loader reading a file
would. The first layer's requirements on the batch (at least 1-D, 4
features) cannot be proven statically, so gshape defers them to run-time
checks, which run at every step and pass on this data; the second layer's
are proven (the first one's output is [*, 16]). Correct program, no
diagnostics expected."""
import json

import torch
import torch.nn as nn
import torch.nn.functional as F

DATA = """{"features": [[5.1, 3.5, 1.4, 0.2], [4.9, 3.0, 1.4, 0.2], [6.2, 2.9, 4.3, 1.3],
                        [5.9, 3.0, 4.2, 1.5], [7.7, 3.0, 6.1, 2.3], [6.3, 3.3, 6.0, 2.5]],
           "labels": [0, 0, 1, 1, 2, 2]}"""


class IrisClassifier(nn.Module):
    def __init__(self, features=4, hidden=16, classes=3):
        super().__init__()
        self.hidden = nn.Linear(features, hidden)
        self.out = nn.Linear(hidden, classes)

    def forward(self, x):
        return self.out(F.relu(self.hidden(x)))


def load(text):
    record = json.loads(text)
    return torch.tensor(record["features"]), torch.tensor(record["labels"])


def main(steps=60):
    torch.manual_seed(0)
    features, labels = load(DATA)
    model = IrisClassifier()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for _ in range(steps):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(features), labels)
        loss.backward()
        optimizer.step()
    print(f"iris loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
# expect-deferred: 2
