# expect: optimizer-state-mismatch
# After "loaded state dict has a different number of parameter groups" reports: the run was
# resumed with discriminative learning rates (two groups), the checkpoint had one.
import os
import tempfile

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Linear(32, 64)
        self.head = nn.Linear(64, 10)

    def forward(self, x):
        return self.head(torch.relu(self.backbone(x)))


path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
model = Model()
opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
torch.save({"model": model.state_dict(), "optimizer": opt.state_dict(), "epoch": 5}, path)

# resume, now with a smaller lr for the backbone
model = Model()
optimizer = torch.optim.AdamW(
    [
        {"params": model.backbone.parameters(), "lr": 1e-4},
        {"params": model.head.parameters(), "lr": 1e-3},
    ]
)
ckpt = torch.load(path)
model.load_state_dict(ckpt["model"])
optimizer.load_state_dict(ckpt["optimizer"])
print("resumed at epoch", ckpt["epoch"])
