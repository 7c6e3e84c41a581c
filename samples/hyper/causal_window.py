# A sequence length against the positional table a model was built for: the
# learned positions cover --block-size steps, so a longer --seq-len no longer
# broadcasts against them.
# launch-ok: --seq-len 32 --block-size 32
# launch-error: broadcast_c1: --seq-len 48 --block-size 32
import argparse

import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab: int, block_size: int, width: int):
        super().__init__()
        self.tokens = nn.Embedding(vocab, width)
        self.positions = nn.Parameter(torch.zeros(1, block_size, width))
        self.head = nn.Linear(width, vocab)

    def forward(self, idx):
        t = idx.size(1)
        x = self.tokens(idx) + self.positions[:, :t]
        return self.head(torch.tanh(x))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--vocab", type=int, default=50)
    parser.add_argument("--block-size", type=int, default=16)
    parser.add_argument("--seq-len", type=int, default=16)
    parser.add_argument("--width", type=int, default=32)
    args = parser.parse_args()
    model = TinyLM(args.vocab, args.block_size, args.width)
    idx = torch.randint(0, args.vocab, (4, args.seq_len))
    print(model(idx).shape)


if __name__ == "__main__":
    main()
