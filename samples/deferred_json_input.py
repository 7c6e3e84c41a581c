"""Inputs whose shapes no analysis can know: a batch decoded from JSON text.
The classifier's requirements on it (a 2-D batch with 4 features) cannot be
proven statically, so gshape defers them to run-time checks; on this data
they pass. Correct program, no diagnostics expected."""
import json

import torch
import torch.nn as nn

PAYLOAD = "[[5.1, 3.5, 1.4, 0.2], [6.2, 2.9, 4.3, 1.3], [7.7, 3.0, 6.1, 2.3]]"


class IrisClassifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))

    def forward(self, x):
        return self.net(x)


def load_batch(text):
    return torch.tensor(json.loads(text))


def main():
    model = IrisClassifier()
    batch = load_batch(PAYLOAD)
    with torch.no_grad():
        prediction = model(batch).argmax(dim=1)
    print("classes", prediction.tolist())


if __name__ == "__main__":
    main()
