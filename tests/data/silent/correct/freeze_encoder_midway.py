# summary: two-phase fine-tuning: the whole model trains for an epoch, then the encoder is frozen (requires_grad=False) while the same AdamW keeps training the head; zero_grad() sets the gradients to None, so the frozen encoder's Adam state is never applied again
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

import diagnoser

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
model = nn.Sequential(encoder, nn.Linear(64, 5))
data = TensorDataset(torch.randn(256, 20), torch.randint(0, 5, (256,)))
loader = DataLoader(data, batch_size=32, shuffle=True)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
with diagnoser.watch(model) as w:
    for epoch in range(3):
        if epoch == 1:
            for p in encoder.parameters():
                p.requires_grad = False
            frozen = [p.detach().clone() for p in encoder.parameters()]
        for x, y in loader:
            optimizer.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
            w.step(loss)
print("encoder unchanged since the freeze:", all(torch.equal(a, b) for a, b in zip(frozen, encoder.parameters())))
