"""rnn-input-size: an LSTM whose input_size does not match the embedding_dim in front of it.

The embedding was widened to 128 dimensions, but the LSTM is still built with a separate constant,
input_size=100. The LSTM checks the last dimension of its input and fails with "input.size(-1)
must be equal to input_size. Expected 100, got 128". `--fixed` builds the LSTM from the embedding
size, so the two cannot drift apart.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

VOCAB, EMBED_DIM, LSTM_INPUT, HIDDEN = 1000, 128, 100, 64


class TextClassifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, EMBED_DIM)
        input_size = self.embedding.embedding_dim if fixed else LSTM_INPUT
        self.lstm = nn.LSTM(input_size, HIDDEN, batch_first=True)
        self.fc = nn.Linear(HIDDEN, 2)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embedding(tokens)  # (batch, seq_len, EMBED_DIM)
        _out, (h_n, _c_n) = self.lstm(x)
        return self.fc(h_n[-1])


model = TextClassifier()
tokens = torch.randint(0, VOCAB, (32, 50))  # 32 sentences of 50 token ids
logits = model(tokens)
print("logits:", tuple(logits.shape))
