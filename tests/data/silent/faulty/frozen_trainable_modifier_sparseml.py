# expect: frozen-layers-trained
# fault-step: 3
# source: https://github.com/neuralmagic/sparseml/pull/966
# summary: a modifier sets requires_grad=False on a module at an epoch boundary but leaves .grad in place; Adam reads .grad, not requires_grad, and keeps updating it
import torch
from torch import nn

import diagnoser


class TrainableParamsModifier:
    def __init__(self, params, start_epoch: int) -> None:
        self.params, self.start_epoch = list(params), start_epoch

    def update(self, epoch: int) -> None:
        if epoch == self.start_epoch:
            for param in self.params:
                param.requires_grad = False


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU(), nn.Linear(32, 1))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
modifier = TrainableParamsModifier(model[0].parameters(), start_epoch=1)
data = [(torch.randn(8, 10), torch.randn(8, 1)) for _ in range(3)]

with diagnoser.watch(model) as w:
    for epoch in range(3):
        modifier.update(epoch)
        for x, y in data:
            optimizer.zero_grad(set_to_none=False)
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            w.step(loss)
