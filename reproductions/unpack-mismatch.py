"""unpack-mismatch: an LSTM classifier that feeds the LSTM's whole return value to nn.Linear.

nn.LSTM does not return a tensor: it returns `(output, (h_n, c_n))`. Writing `x = self.lstm(x)`
(as if it were a Keras LSTM that returns the last hidden state) passes that tuple on, and the next
layer fails with "linear(): argument 'input' (position 1) must be Tensor, not tuple".
`--fixed` unpacks it, `out, (h_n, c_n) = self.lstm(x)`, and classifies from the last time step
`out[:, -1]` (the same as the final hidden state `h_n[-1]` for a one-directional LSTM).
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


class SentimentLSTM(nn.Module):
    def __init__(self, vocab_size: int = 1000, embed_dim: int = 32, hidden: int = 64) -> None:
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.lstm = nn.LSTM(embed_dim, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, 2)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        x = self.embedding(tokens)  # (batch, seq_len, embed_dim)
        if fixed:
            # out: (batch, seq_len, hidden); h_n and c_n: (num_layers, batch, hidden)
            out, (h_n, _c_n) = self.lstm(x)
            last = out[:, -1]  # the last time step: the same as h_n[-1] here
            assert torch.allclose(last, h_n[-1])
            return self.fc(last)
        x = self.lstm(x)  # the mistake: this is a tuple (output, (h_n, c_n)), not a tensor
        return self.fc(x)


model = SentimentLSTM()
tokens = torch.randint(0, 1000, (16, 20))  # 16 reviews of 20 token ids
labels = torch.randint(0, 2, (16,))
logits = model(tokens)
loss = nn.functional.cross_entropy(logits, labels)
loss.backward()
print(f"logits: {tuple(logits.shape)}, loss: {loss.item():.4f}")
