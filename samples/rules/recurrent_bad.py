"""LSTM, GRU, RNN, each constraint violated once."""
import torch
import torch.nn as nn


def case_dropout():
    # expect-error@+1: nn_lstm_c1
    nn.LSTM(10, 20, dropout=1.5)


def case_proj_size():
    # expect-error@+1: nn_lstm_c2
    nn.LSTM(10, 20, proj_size=20)


def case_gru_proj_size():
    # expect-error@+1: nn_gru_c2
    nn.GRU(10, 20, proj_size=5)


def case_input_size():
    # expect-error@+1: nn_lstm_c3
    nn.LSTM(-1, 20)


def case_layers():
    # expect-error@+1: nn_rnn_c4
    nn.RNN(10, 20, num_layers=0)


def case_nonlinearity():
    # expect-error@+1: nn_rnn_c5
    nn.RNN(10, 20, nonlinearity="sigmoid")


def case_rank():
    lstm = nn.LSTM(10, 20)
    # expect-error@+1: lstm_c1
    lstm(torch.zeros(10))


def case_input_features():
    gru = nn.GRU(10, 20)
    # expect-error@+1: gru_c2
    gru(torch.zeros(5, 3, 12))


def case_hidden_rank():
    lstm = nn.LSTM(10, 20)
    h0 = torch.zeros(3, 20)
    # expect-error@+1: lstm_c3
    lstm(torch.zeros(5, 3, 10), (h0, h0))


def case_hidden_shape():
    lstm = nn.LSTM(10, 20, num_layers=2)
    # expect-error@+1: lstm_c4
    lstm(torch.zeros(5, 3, 10), (torch.zeros(1, 3, 20), torch.zeros(2, 3, 20)))


def case_cell_shape():
    lstm = nn.LSTM(10, 20)
    # expect-error@+1: lstm_c5
    lstm(torch.zeros(5, 3, 10), (torch.zeros(1, 3, 20), torch.zeros(1, 3, 10)))


def case_rnn_hidden():
    rnn = nn.RNN(4, 6, batch_first=True)
    # expect-error@+2: rnn_c4
    # expect-help@+1: batch_first
    rnn(torch.zeros(2, 5, 4), torch.zeros(1, 5, 6))


def case_empty_sequence():
    gru = nn.GRU(4, 6)
    # expect-error@+1: gru_c6
    gru(torch.zeros(0, 2, 4))


def case_lstm_input_features():
    lstm = nn.LSTM(10, 20)
    # expect-error@+1: lstm_c2
    lstm(torch.zeros(5, 3, 11))


def case_lstm_empty_sequence():
    lstm = nn.LSTM(4, 6, batch_first=True)
    # expect-error@+1: lstm_c6
    lstm(torch.zeros(2, 0, 4))


def case_lstm_layers():
    # expect-error@+1: nn_lstm_c4
    nn.LSTM(10, 20, num_layers=0)


def case_gru_dropout():
    # expect-error@+1: nn_gru_c1
    nn.GRU(10, 20, dropout=-0.5)


def case_gru_input_size():
    # expect-error@+1: nn_gru_c3
    nn.GRU(-2, 20)


def case_gru_layers():
    # expect-error@+1: nn_gru_c4
    nn.GRU(10, 20, num_layers=-1)


def case_gru_rank():
    gru = nn.GRU(10, 20)
    # expect-error@+1: gru_c1
    gru(torch.zeros(2, 3, 4, 10))


def case_gru_hidden_rank():
    gru = nn.GRU(10, 20)
    # expect-error@+1: gru_c3
    gru(torch.zeros(5, 10), torch.zeros(1, 1, 20))


def case_gru_hidden_shape():
    gru = nn.GRU(10, 20, bidirectional=True)
    # expect-error@+1: gru_c4
    gru(torch.zeros(5, 3, 10), torch.zeros(1, 3, 20))


def case_rnn_dropout():
    # expect-error@+1: nn_rnn_c1
    nn.RNN(10, 20, dropout=2.0)


def case_rnn_hidden_size():
    # expect-error@+1: nn_rnn_c2
    nn.RNN(10, 0)


def case_rnn_input_size():
    # expect-error@+1: nn_rnn_c3
    nn.RNN(-1, 20)


def case_rnn_rank():
    rnn = nn.RNN(10, 20)
    # expect-error@+1: rnn_c1
    rnn(torch.zeros(10))


def case_rnn_input_features():
    rnn = nn.RNN(10, 20)
    # expect-error@+1: rnn_c2
    rnn(torch.zeros(5, 9))


def case_rnn_hidden_rank():
    rnn = nn.RNN(10, 20)
    # expect-error@+1: rnn_c3
    rnn(torch.zeros(5, 3, 10), torch.zeros(3, 20))


def case_rnn_empty_sequence():
    rnn = nn.RNN(10, 20)
    # expect-error@+1: rnn_c6
    rnn(torch.zeros(0, 10))


def case_lstm_cell_hidden_size():
    # expect-error@+1: nn_lstm_cell_c1
    nn.LSTMCell(10, -1)


def case_gru_cell_input_size():
    # expect-error@+1: nn_gru_cell_c1
    nn.GRUCell(-3, 4)


def case_rnn_cell_sizes():
    # expect-error@+1: nn_rnn_cell_c1
    nn.RNNCell(-1, 2)


def case_lstm_cell_rank():
    cell = nn.LSTMCell(10, 20)
    # expect-error@+1: lstm_cell_c1
    cell(torch.zeros(5, 3, 10))


def case_lstm_cell_input_features():
    cell = nn.LSTMCell(10, 20)
    # expect-error@+1: lstm_cell_c2
    cell(torch.zeros(3, 12))


def case_lstm_cell_hidden_rank():
    cell = nn.LSTMCell(10, 20)
    # expect-error@+1: lstm_cell_c3
    cell(torch.zeros(10), (torch.zeros(3, 20), torch.zeros(20)))


def case_lstm_cell_hidden_batch():
    cell = nn.LSTMCell(10, 20)
    # expect-error@+1: lstm_cell_c4
    cell(torch.zeros(3, 10), (torch.zeros(4, 20), torch.zeros(3, 20)))


def case_lstm_cell_cell_state():
    cell = nn.LSTMCell(10, 20)
    # expect-error@+1: lstm_cell_c5
    cell(torch.zeros(3, 10), (torch.zeros(3, 20), torch.zeros(3, 10)))


def case_lstm_cell_pair():
    cell = nn.LSTMCell(10, 20)
    h = torch.zeros(3, 20)
    # expect-error@+1: lstm_cell_c6
    cell(torch.zeros(3, 10), (h, h, h))


def case_gru_cell_rank():
    cell = nn.GRUCell(8, 16)
    # expect-error@+1: gru_cell_c1
    cell(torch.zeros(1, 2, 8))


def case_gru_cell_input_features():
    cell = nn.GRUCell(8, 16)
    # expect-error@+1: gru_cell_c2
    cell(torch.zeros(7))


def case_gru_cell_hidden_rank():
    cell = nn.GRUCell(8, 16)
    # expect-error@+1: gru_cell_c3
    cell(torch.zeros(2, 8), torch.zeros(16))


def case_gru_cell_hidden_batch():
    cell = nn.GRUCell(8, 16)
    # expect-error@+1: gru_cell_c4
    cell(torch.zeros(2, 8), torch.zeros(1, 16))


def case_gru_cell_hidden_size():
    cell = nn.GRUCell(8, 16)
    # expect-error@+1: gru_cell_c5
    cell(torch.zeros(8), torch.zeros(15))


def case_rnn_cell_rank():
    cell = nn.RNNCell(4, 6)
    # expect-error@+1: rnn_cell_c1
    cell(torch.tensor(1.0))


def case_rnn_cell_input_features():
    cell = nn.RNNCell(4, 6)
    # expect-error@+1: rnn_cell_c2
    cell(torch.zeros(2, 5))


def case_rnn_cell_hidden_rank():
    cell = nn.RNNCell(4, 6)
    # expect-error@+1: rnn_cell_c3
    cell(torch.zeros(2, 4), torch.zeros(1, 2, 6))


def case_rnn_cell_hidden_batch():
    cell = nn.RNNCell(4, 6)
    # expect-error@+1: rnn_cell_c4
    cell(torch.zeros(2, 4), torch.zeros(3, 6))


def case_rnn_cell_hidden_size():
    cell = nn.RNNCell(4, 6)
    # expect-error@+1: rnn_cell_c5
    cell(torch.zeros(2, 4), torch.zeros(2, 5))


def case_rnn_cell_nonlinearity():
    cell = nn.RNNCell(4, 6, nonlinearity="sigmoid")
    # expect-error@+1: rnn_cell_c7
    cell(torch.zeros(2, 4))


if __name__ == "__main__":
    # Each case_ function must fail at its last line, with PyTorch's own error.
    import sys
    from rule_cases import expect_each_case_to_fail
    sys.exit(expect_each_case_to_fail(globals()))
