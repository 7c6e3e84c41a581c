"""A pre-norm transformer encoder block: multi-head self-attention written
out by hand (with the key transpose), nn.MultiheadAttention as a cross-check,
and a position-wise feed-forward network. Correct program."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_heads, self.d_head).transpose(1, 2)   # [B, h, T, d]
        k = k.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.d_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.d_head)       # [B, h, T, T]
        att = F.softmax(att, dim=-1)
        y = att @ v                                                    # [B, h, T, d]
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.out(y)


class Block(nn.Module):
    def __init__(self, d_model=64, n_heads=4, d_ff=256, dropout=0.1):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.attn = SelfAttention(d_model, n_heads)
        self.ln2 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(
            nn.Linear(d_model, d_ff),
            nn.GELU(),
            nn.Linear(d_ff, d_model),
            nn.Dropout(dropout),
        )

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.ff(self.ln2(x))


def main():
    torch.manual_seed(5)
    x = torch.randn(2, 10, 64)
    block = Block()
    y = block(x)
    mha = nn.MultiheadAttention(64, 4, batch_first=True)
    z, weights = mha(y, y, y)
    print("block", tuple(y.shape), "mha", tuple(z.shape), "weights", tuple(weights.shape))


if __name__ == "__main__":
    main()
# expect-deferred: 0
