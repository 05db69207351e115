# expect: bce-target-size
# After "Target size (torch.Size([16])) must be the same as input size (torch.Size([16, 1]))"
# reports, in a trainer that logs the exception with logging.exception and moves on.
import logging

import torch
import torch.nn as nn

logging.basicConfig(level=logging.INFO)
logger = logging.getLogger(__name__)

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
criterion = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(model.parameters())


def run_epoch(epoch):
    x = torch.randn(16, 8)
    y = torch.randint(0, 2, (16,)).float()
    loss = criterion(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


for epoch in range(2):
    try:
        logger.info("epoch %d: loss %.4f", epoch, run_epoch(epoch))
    except Exception:
        logger.exception("epoch %d failed", epoch)
