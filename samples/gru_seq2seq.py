"""A GRU encoder-decoder with dot-product attention over the encoder states
(bidirectional encoder, teacher forcing). Correct program."""
import torch
import torch.nn as nn
import torch.nn.functional as F

src_vocab, tgt_vocab, emb, hid = 30, 25, 16, 32


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(src_vocab, emb)
        self.gru = nn.GRU(emb, hid, batch_first=True, bidirectional=True)
        self.bridge = nn.Linear(2 * hid, hid)

    def forward(self, src):
        outputs, h = self.gru(self.embedding(src))     # [B, S, 2*hid], [2, B, hid]
        h = torch.tanh(self.bridge(torch.cat([h[0], h[1]], dim=1)))  # [B, hid]
        return self.bridge(outputs), h.unsqueeze(0)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(tgt_vocab, emb)
        self.gru = nn.GRU(emb + hid, hid, batch_first=True)
        self.out = nn.Linear(hid, tgt_vocab)

    def forward(self, token, hidden, enc):
        e = self.embedding(token).unsqueeze(1)                         # [B, 1, emb]
        scores = torch.bmm(enc, hidden[-1].unsqueeze(2)).squeeze(2)    # [B, S]
        context = torch.bmm(F.softmax(scores, dim=1).unsqueeze(1), enc)  # [B, 1, hid]
        output, hidden = self.gru(torch.cat((e, context), dim=2), hidden)
        return self.out(output.squeeze(1)), hidden


def main():
    torch.manual_seed(7)
    enc, dec = Encoder(), Decoder()
    src = torch.randint(0, src_vocab, (3, 9))
    tgt = torch.randint(0, tgt_vocab, (3, 6))
    enc_out, hidden = enc(src)
    loss = torch.zeros(())
    for t in range(tgt.size(1) - 1):
        logits, hidden = dec(tgt[:, t], hidden, enc_out)
        loss = loss + F.cross_entropy(logits, tgt[:, t + 1])
    loss.backward()
    print(f"seq2seq loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
# expect-deferred: 0
