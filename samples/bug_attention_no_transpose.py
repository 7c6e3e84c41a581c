"""Scaled dot-product attention written as q @ k instead of
q @ k.transpose(-2, -1): with 10 tokens and 16-dimensional heads the inner
dimensions (16 and 10) do not match.

PyTorch fails with "Expected size for first two dimensions of batch2 tensor
to be: [16, 16] but got: [16, 10]."
"""
import math

import torch
import torch.nn.functional as F

batch, heads, tokens, d_head = 2, 8, 10, 16


def attention(q, k, v):
    # expect-error@+2: matmul_c2
    # expect-help@+1: transposed_weight
    scores = q @ k / math.sqrt(q.size(-1))
    return F.softmax(scores, dim=-1) @ v


def main():
    q = torch.randn(batch, heads, tokens, d_head)
    k = torch.randn(batch, heads, tokens, d_head)
    v = torch.randn(batch, heads, tokens, d_head)
    print(attention(q, k, v).shape)


if __name__ == "__main__":
    main()
