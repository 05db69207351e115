# expect: ce-target-dtype
import logging

import torch
import torch.nn as nn

logging.basicConfig(
    level=logging.INFO, format="%(asctime)s - %(name)s - %(levelname)s - %(message)s"
)
log = logging.getLogger("train")

model = nn.Linear(8, 3)
crit = nn.CrossEntropyLoss()
x = torch.randn(16, 8)
y = torch.randint(0, 3, (16,)).float()  # labels stored as float in the HDF5 file
for epoch in range(2):
    try:
        loss = crit(model(x), y)
        log.info("epoch %d loss %.4f", epoch, loss.item())
    except Exception:
        log.exception("step failed, skipping epoch %d", epoch)
