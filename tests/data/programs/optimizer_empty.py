# expect: optimizer-empty-params
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = [nn.Linear(4, 4), nn.Linear(4, 1)]  # plain list

    def forward(self, x):
        for l in self.layers:
            x = l(x)
        return x


model = Model()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
