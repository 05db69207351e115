# expect: dynamo-compile-error
# A tabular regressor compiled with fullgraph=True (the user wants one graph, no fallbacks); its
# forward logs the batch mean through the logging module, which Dynamo cannot put in a graph.
import logging

import torch
import torch.nn as nn

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger("tabular")


class TabRegressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        logger.debug("batch mean %.3f", x.mean())
        return self.net(x)


model = torch.compile(TabRegressor(), backend="eager", fullgraph=True)
x, y = torch.randn(256, 12), torch.randn(256, 1)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    logger.info("step %d loss %.4f", step, loss.item())
