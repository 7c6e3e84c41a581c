"""LSTM, GRU, RNN where every constraint holds: no diagnostic."""
import torch
import torch.nn as nn


def case_lstm():
    lstm = nn.LSTM(10, 20, num_layers=2, bidirectional=True, proj_size=5)
    x = torch.zeros(7, 3, 10)
    h0, c0 = torch.zeros(4, 3, 5), torch.zeros(4, 3, 20)
    return lstm(x), lstm(x, (h0, c0)), lstm(torch.zeros(7, 10))


def case_gru_rnn():
    gru = nn.GRU(8, 16, batch_first=True)
    rnn = nn.RNN(4, 6, nonlinearity="relu", dropout=0.5, num_layers=2)
    return gru(torch.zeros(2, 5, 8), torch.zeros(1, 2, 16)), rnn(torch.zeros(3, 4), torch.zeros(2, 6))


def case_cells():
    lstm, gru = nn.LSTMCell(10, 20), nn.GRUCell(8, 16, bias=False)
    rnn = nn.RNNCell(4, 6, nonlinearity="relu")
    h, c = lstm(torch.zeros(3, 10), (torch.zeros(3, 20), torch.zeros(3, 20)))
    h1, c1 = lstm(torch.zeros(10))
    g = gru(torch.zeros(2, 8), torch.zeros(2, 16)) + gru(torch.zeros(2, 8))
    r = rnn(torch.zeros(4), torch.zeros(6)) + torch.zeros(6)
    return h + c + torch.zeros(3, 20), h1 + c1 + torch.zeros(20), g + torch.zeros(2, 16), r


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
