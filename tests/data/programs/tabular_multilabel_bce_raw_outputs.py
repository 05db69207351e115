# expect: bce-input-range
# Multi-label tagging of tabular records (each row can have several of 6 tags): nn.BCELoss on the
# linear layer's raw outputs. Logged with the logging module.
import logging

import torch
import torch.nn as nn

logging.basicConfig(format="[%(levelname)s] %(message)s", level=logging.INFO)
log = logging.getLogger(__name__)
torch.manual_seed(0)
X = torch.randn(300, 15)
Y = (torch.rand(300, 6) > 0.7).float()
model = nn.Sequential(nn.Linear(15, 32), nn.ReLU(), nn.Linear(32, 6))
criterion = nn.BCELoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
log.info("features=%d tags=%d positives=%.2f", X.shape[1], Y.shape[1], Y.mean().item())
for epoch in range(3):
    out = model(X)
    loss = criterion(out, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    log.info("epoch %d loss %.4f", epoch, loss.item())
