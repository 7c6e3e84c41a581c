"""Joining image features [B, 512] and text features [B, 256] along dim 0
instead of dim 1: torch.cat requires every other dimension to match.

PyTorch fails with "Sizes of tensors must match except in dimension 0.
Expected size 512 but got size 256 for tensor number 1 in the list."
"""
import torch
import torch.nn as nn


class Fusion(nn.Module):
    def __init__(self):
        super().__init__()
        self.image = nn.Linear(2048, 512)
        self.text = nn.Linear(300, 256)
        self.head = nn.Linear(768, 2)

    def forward(self, image_features, text_features):
        a = self.image(image_features)
        b = self.text(text_features)
        # expect-error@+2: cat_c5
        # expect-help@+1: cat_dim
        joint = torch.cat([a, b], dim=0)
        return self.head(joint)


def main():
    model = Fusion()
    print(model(torch.randn(4, 2048), torch.randn(4, 300)).shape)


if __name__ == "__main__":
    main()
