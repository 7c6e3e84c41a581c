"""A word-level LSTM language model (embedding, 2-layer LSTM, decoder) on
random token streams, with truncated back-propagation. Correct program."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.2):
        super().__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        self.nlayers = nlayers
        self.nhid = nhid

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))          # [T, B, ninp]
        output, hidden = self.rnn(emb, hidden)        # [T, B, nhid]
        output = self.drop(output)
        decoded = self.decoder(output)                # [T, B, ntoken]
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        return (torch.zeros(self.nlayers, bsz, self.nhid),
                torch.zeros(self.nlayers, bsz, self.nhid))


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].reshape(-1)
    return data, target


def main():
    torch.manual_seed(4)
    ntokens, bsz, bptt = 50, 4, 7
    corpus = torch.randint(0, ntokens, (200,))
    train_data = batchify(corpus, bsz)                # [50, 4]
    model = RNNModel(ntokens, 16, 32, 2)
    hidden = model.init_hidden(bsz)
    criterion = nn.NLLLoss()
    total = 0.0
    for i in range(0, train_data.size(0) - 1, bptt):
        data, targets = get_batch(train_data, i, bptt)
        hidden = tuple(h.detach() for h in hidden)
        model.zero_grad()
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        total += loss.item()
    print(f"lm loss {total:.3f}")


if __name__ == "__main__":
    main()
# expect-deferred: 0
