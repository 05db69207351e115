"""backward-twice: an RNN's hidden state carried from one batch to the next without .detach().

A character-level language model is trained with truncated backpropagation through time: the text
is cut into chunks of 20 steps and the GRU's last hidden state is fed into the next chunk, so the
model keeps its memory across chunks. But the hidden state still carries the previous chunk's
autograd graph. The second `loss.backward()` walks through the new chunk, then on into the old
chunk's graph, whose saved tensors the first backward already freed: "Trying to backward through
the graph a second time".

`--fixed` cuts the graph at the chunk boundary with `hidden = hidden.detach()`: the values flow on,
the gradient stops there. (retain_graph=True would not fix it: every step would backpropagate
through all the chunks before it, slower and slower, and the old graph was also built with weights
that optimizer.step() has since changed in place.)
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)


class CharLM(nn.Module):
    def __init__(self, vocab: int = 40, hidden: int = 32) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, 16)
        self.gru = nn.GRU(16, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, tokens: torch.Tensor, h: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        out, h = self.gru(self.embed(tokens), h)
        return self.head(out), h


model = CharLM()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
text = torch.randint(0, 40, (8, 101))  # 8 streams of 101 characters
seq_len = 20

hidden = torch.zeros(1, 8, 32)
for step, start in enumerate(range(0, 100, seq_len)):
    inputs = text[:, start : start + seq_len]
    targets = text[:, start + 1 : start + seq_len + 1]
    if fixed:
        hidden = hidden.detach()  # keep the values, drop the previous chunk's graph
    logits, hidden = model(inputs, hidden)
    loss = criterion(logits.reshape(-1, 40), targets.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"chunk {step}: loss {loss.item():.4f}")
