# expect: none
# A typo'd attribute on the user's own Trainer class (optimiser vs optimizer): an AttributeError of
# plain Python, not a PyTorch mistake.
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, model, lr):
        self.model = model
        self.optimiser = torch.optim.Adam(model.parameters(), lr=lr)

    def step(self, x, y):
        loss = nn.functional.mse_loss(self.model(x), y)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()


trainer = Trainer(nn.Linear(3, 1), lr=1e-3)
for i in range(3):
    print(trainer.step(torch.randn(4, 3), torch.randn(4, 1)))
