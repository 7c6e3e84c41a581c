"""nn.MultiheadAttention where every constraint holds: no diagnostic."""
import torch
import torch.nn as nn


def case_self_attention():
    mha = nn.MultiheadAttention(16, 4, batch_first=True)
    x = torch.zeros(2, 5, 16)
    mask = torch.zeros(2, 5, dtype=torch.bool)
    return mha(x, x, x, key_padding_mask=mask), mha(x, x, x, need_weights=False)


def case_cross_attention():
    mha = nn.MultiheadAttention(8, 2, kdim=6, vdim=4, add_bias_kv=True)
    q, k, v = torch.zeros(3, 2, 8), torch.zeros(5, 2, 6), torch.zeros(5, 2, 4)
    return mha(q, k, v, attn_mask=torch.zeros(3, 5, dtype=torch.bool), average_attn_weights=False)


def case_unbatched():
    mha = nn.MultiheadAttention(8, 2)
    return mha(torch.zeros(3, 8), torch.zeros(4, 8), torch.zeros(4, 8))


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
