"""Recurrent encoders with explicit initial hidden states: a 2-layer
bidirectional LSTM (batch_first) whose (h0, c0) have shape
(num_layers * num_directions, batch, hidden), and a 2-layer bidirectional
GRU (time-major) started from a learned h0 expanded over the batch; the
last layer's forward and backward final states are taken from h_n with
view(num_layers, num_directions, batch, hidden) and concatenated for a
sequence classifier. A few Adam steps on random token sequences.
Correct program."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LSTMClassifier(nn.Module):
    def __init__(self, vocab, embed=24, hidden=32, num_layers=2, classes=5):
        super().__init__()
        self.hidden = hidden
        self.num_layers = num_layers
        self.num_directions = 2
        self.embedding = nn.Embedding(vocab, embed)
        self.lstm = nn.LSTM(embed, hidden, num_layers=num_layers, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(2 * hidden, classes)

    def init_hidden(self, batch):
        shape = (self.num_layers * self.num_directions, batch, self.hidden)
        return torch.zeros(*shape), torch.zeros(*shape)

    def forward(self, tokens):
        batch = tokens.size(0)
        h0, c0 = self.init_hidden(batch)
        emb = self.embedding(tokens)                         # [B, T, embed]
        output, (h_n, c_n) = self.lstm(emb, (h0, c0))        # [B, T, 2*hidden]
        h_n = h_n.view(self.num_layers, self.num_directions, batch, self.hidden)
        last = torch.cat([h_n[-1, 0], h_n[-1, 1]], dim=1)    # [B, 2*hidden]
        assert output.size(2) == last.size(1)
        return self.fc(last)


class GRUClassifier(nn.Module):
    def __init__(self, features=12, hidden=20, num_layers=2, classes=5):
        super().__init__()
        self.hidden = hidden
        self.num_layers = num_layers
        self.gru = nn.GRU(features, hidden, num_layers, bidirectional=True)
        self.h0 = nn.Parameter(torch.zeros(num_layers * 2, 1, hidden))
        self.fc = nn.Linear(hidden * 2, classes)

    def forward(self, x):
        seq_len, batch, _ = x.shape                          # time-major: [T, B, features]
        h0 = self.h0.expand(-1, batch, -1).contiguous()      # [layers*2, B, hidden]
        output, h_n = self.gru(x, h0)                        # [T, B, 2*hidden]
        h_n = h_n.view(self.num_layers, 2, batch, self.hidden)
        last = torch.cat((h_n[-1, 0, :, :], h_n[-1, 1, :, :]), dim=-1)
        pooled = output.mean(dim=0)                          # [B, 2*hidden]
        return self.fc(last + pooled)


def main():
    torch.manual_seed(13)
    vocab, batch, seq_len, classes = 40, 6, 9, 5
    lstm_model = LSTMClassifier(vocab, classes=classes)
    gru_model = GRUClassifier(classes=classes)
    params = list(lstm_model.parameters()) + list(gru_model.parameters())
    optimizer = torch.optim.Adam(params, lr=1e-2)
    tokens = torch.randint(0, vocab, (batch, seq_len))
    features = torch.randn(seq_len, batch, 12)
    labels = torch.randint(0, classes, (batch,))
    for step in range(3):
        loss = F.cross_entropy(lstm_model(tokens), labels) + F.cross_entropy(gru_model(features), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
