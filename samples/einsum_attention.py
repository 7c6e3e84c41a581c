"""Multi-head attention written with torch.einsum, reshape and permute, with
an additive causal mask built from torch.triu. Correct program."""
import torch
import torch.nn as nn


class EinsumAttention(nn.Module):
    def __init__(self, dim=32, heads=4):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, d = x.shape
        qkv = self.to_qkv(x).reshape(b, n, 3, self.heads, d // self.heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)                      # each [b, h, n, d/h]
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale  # [b, h, n, n]
        mask = torch.triu(torch.ones(n, n), diagonal=1) * -1e9
        attn = (dots + mask).softmax(dim=-1)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)             # [b, h, n, d/h]
        out = out.permute(0, 2, 1, 3).reshape(b, n, d)
        return self.proj(out)


def main():
    torch.manual_seed(11)
    layer = EinsumAttention()
    x = torch.randn(2, 7, 32)
    print("einsum attention", tuple(layer(x).shape))


if __name__ == "__main__":
    main()
# expect-deferred: 0
