"""Small modules where every constraint holds (activations, PReLU, dropout,
softmax, flatten, bilinear, embedding): no diagnostic."""
import json

import torch
import torch.nn as nn
import torch.nn.functional as F


def case_activations():
    x = torch.zeros(2, 3, 4)
    layers = [nn.ReLU(inplace=True), nn.GELU(), nn.Tanh(), nn.Sigmoid(), nn.LeakyReLU(0.2), nn.ELU(), nn.SiLU(),
              nn.Hardtanh(-2.0, 2.0), nn.PReLU(3), nn.Dropout(0.3), nn.Identity()]
    for layer in layers:
        x = layer(x)
    return x, F.prelu(x, torch.zeros(1))


def case_softmax_flatten():
    x = torch.zeros(2, 3, 4)
    return nn.Softmax(dim=-1)(x), nn.LogSoftmax(1)(x), nn.Flatten()(x), nn.Flatten(0, 1)(x)


def case_bilinear_embedding():
    bil = nn.Bilinear(3, 4, 5)
    emb = nn.Embedding(10, 8, padding_idx=0)
    idx = torch.zeros(2, 7, dtype=torch.long)
    return (bil(torch.zeros(6, 3), torch.zeros(6, 4)), F.bilinear(torch.zeros(3), torch.zeros(4), torch.zeros(5, 3, 4)),
            emb(idx), F.embedding(idx, torch.zeros(10, 3), padding_idx=-1))


def case_embedding_of_unknown_rank():
    # indices of unknown rank (decoded at run time): the embedding's output
    # is [*, 8], enough to prove the layers after it
    tokens = torch.tensor(json.loads("[[1, 2, 3]]"))
    h = nn.LayerNorm(8)(nn.Embedding(10, 8)(tokens))
    return nn.Linear(8, 4)(h) + torch.zeros(4)


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
