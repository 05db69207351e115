# expect: rnn-input-size
# After "Expected hidden[0] size (1, 20, 64), got [1, 32, 64]" reports: the LSTM's initial state
# built once for the configured batch size; the last batch of the epoch is smaller.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

BATCH_SIZE = 32


class SeqClassifier(nn.Module):
    def __init__(self, n_features=8, hidden=64):
        super().__init__()
        self.lstm = nn.LSTM(n_features, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, 3)
        self.h0 = torch.zeros(1, BATCH_SIZE, hidden)
        self.c0 = torch.zeros(1, BATCH_SIZE, hidden)

    def forward(self, x):
        out, _ = self.lstm(x, (self.h0, self.c0))
        return self.fc(out[:, -1])


ds = TensorDataset(torch.randn(84, 15, 8), torch.randint(0, 3, (84,)))
model = SeqClassifier()
opt = torch.optim.Adam(model.parameters())
for epoch in range(2):
    for step, (x, y) in enumerate(DataLoader(ds, batch_size=BATCH_SIZE, shuffle=True)):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"epoch {epoch} step {step} loss {loss.item():.4f}")
