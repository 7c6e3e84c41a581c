"""A transformer encoder for variable-length sequences built on
nn.MultiheadAttention(batch_first=True): sinusoidal positional encodings,
a key_padding_mask [B, S] from the sequence lengths, a float causal
attn_mask [S, S] (-inf above the diagonal), per-head attention
weights (average_attn_weights=False), masked mean pooling and a classifier;
a few Adam steps on random padded batches. Correct program."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def sinusoidal_positions(length, d_model):
    position = torch.arange(length).unsqueeze(1)                              # [S, 1]
    div_term = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
    pe = torch.zeros(length, d_model)
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


def causal_mask(length):
    # -inf above the diagonal: token i attends to tokens 0..i (token 0 is never padding)
    return torch.triu(torch.full((length, length), float("-inf")), diagonal=1)


class EncoderLayer(nn.Module):
    def __init__(self, d_model, nhead, dim_feedforward, dropout=0.1):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d_model, nhead, dropout=dropout, batch_first=True)
        self.linear1 = nn.Linear(d_model, dim_feedforward)
        self.linear2 = nn.Linear(dim_feedforward, d_model)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, attn_mask, key_padding_mask):
        h = self.norm1(x)
        attn, weights = self.self_attn(h, h, h, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                                       average_attn_weights=False)           # [B, S, E], [B, H, S, S]
        x = x + self.dropout(attn)
        x = x + self.dropout(self.linear2(F.relu(self.linear1(self.norm2(x)))))
        return x, weights


class Encoder(nn.Module):
    def __init__(self, vocab, d_model=32, nhead=4, num_layers=2, dim_feedforward=64, max_len=24, classes=3):
        super().__init__()
        self.d_model = d_model
        self.embed = nn.Embedding(vocab, d_model, padding_idx=0)
        self.register_buffer("pe", sinusoidal_positions(max_len, d_model))
        self.layers = nn.ModuleList(
            [EncoderLayer(d_model, nhead, dim_feedforward) for _ in range(num_layers)])
        self.classifier = nn.Linear(d_model, classes)

    def forward(self, tokens, lengths):
        B, S = tokens.shape
        key_padding_mask = torch.arange(S).unsqueeze(0) >= lengths.unsqueeze(1)   # [B, S], True = pad
        attn_mask = causal_mask(S)                                               # [S, S]
        x = self.embed(tokens) * math.sqrt(self.d_model) + self.pe[:S]
        for layer in self.layers:
            x, weights = layer(x, attn_mask, key_padding_mask)
        keep = (~key_padding_mask).unsqueeze(-1).float()                         # [B, S, 1]
        pooled = (x * keep).sum(dim=1) / keep.sum(dim=1)                         # [B, E]
        return self.classifier(pooled), weights


def main():
    torch.manual_seed(15)
    vocab, batch, seq_len = 50, 5, 12
    model = Encoder(vocab)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    lengths = torch.tensor([12, 9, 7, 12, 4])
    tokens = torch.randint(1, vocab, (batch, seq_len))
    tokens = tokens.masked_fill(torch.arange(seq_len).unsqueeze(0) >= lengths.unsqueeze(1), 0)
    labels = torch.randint(0, 3, (batch,))
    for step in range(3):
        logits, weights = model(tokens, lengths)
        loss = F.cross_entropy(logits, labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} weights {tuple(weights.shape)}")


if __name__ == "__main__":
    main()
