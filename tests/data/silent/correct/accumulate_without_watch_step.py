# summary: a character-level language model trained with gradient accumulation 8 and watch as a bare context manager (the loop never calls w.step()): losses of micro-batches summed before each update, the loss printed every 10 updates, an evaluation pass under torch.no_grad() with model.eval() every 20 updates
import torch
from torch import nn
from torch.nn import functional as F

import diagnoser

torch.manual_seed(0)
text = "the quick brown fox jumps over the lazy dog. " * 200
chars = sorted(set(text))
data = torch.tensor([chars.index(c) for c in text])
block, vocab = 32, len(chars)


def get_batch(batch_size=8):
    ix = torch.randint(len(data) - block - 1, (batch_size,))
    x = torch.stack([data[i : i + block] for i in ix])
    y = torch.stack([data[i + 1 : i + block + 1] for i in ix])
    return x, y


class CharModel(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.drop = nn.Dropout(0.1)
        self.head = nn.Linear(dim, vocab)

    def forward(self, x):
        h, _ = self.rnn(self.embed(x))
        return self.head(self.drop(h))


model = CharModel()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
accumulation = 8
with diagnoser.watch(model):
    for update in range(60):
        model.train()
        optimizer.zero_grad(set_to_none=True)
        total = 0.0
        for _ in range(accumulation):
            x, y = get_batch()
            loss = F.cross_entropy(model(x).view(-1, vocab), y.view(-1)) / accumulation
            loss.backward()
            total += loss.item()
        nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        if update % 10 == 0:
            print(f"update {update} loss {total:.4f}")
        if update % 20 == 19:
            model.eval()
            with torch.no_grad():
                x, y = get_batch(32)
                print(f"eval loss {F.cross_entropy(model(x).view(-1, vocab), y.view(-1)).item():.4f}")
