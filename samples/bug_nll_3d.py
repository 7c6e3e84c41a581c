"""A sequence tagger that feeds log-probabilities of shape [B, T, V] to
NLLLoss with targets [B, T]. NLLLoss reads the class dimension second
([B, V, T]), so it expects targets of shape [B, V].

PyTorch fails with "Expected target size [4, 12], got [4, 7]".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

vocab, embed, hidden = 12, 8, 16


class Tagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(vocab, embed)
        self.rnn = nn.GRU(embed, hidden, batch_first=True)
        self.proj = nn.Linear(hidden, vocab)

    def forward(self, tokens):
        out, _ = self.rnn(self.embed(tokens))      # [B, T, hidden]
        return F.log_softmax(self.proj(out), dim=-1)  # [B, T, V]


def main():
    model = Tagger()
    criterion = nn.NLLLoss()
    tokens = torch.randint(0, vocab, (4, 7))
    targets = torch.randint(0, vocab, (4, 7))
    log_probs = model(tokens)
    # expect-error@+1: nll_loss_c3
    loss = criterion(log_probs, targets)
    loss.backward()


if __name__ == "__main__":
    main()
