# expect: broadcast-mismatch
# A learned positional embedding made for max_len=512 is added whole to a batch of 128 tokens,
# instead of self.pos[:, :T].
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab=1000, dim=64, max_len=512):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Parameter(torch.zeros(1, max_len, dim))
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.tok(ids) + self.pos
        return self.out(h)


model = Encoder()
ids = torch.randint(0, 1000, (4, 128))
logits = model(ids)
loss = nn.functional.cross_entropy(logits.view(-1, 1000), ids.view(-1))
print(loss.item())
