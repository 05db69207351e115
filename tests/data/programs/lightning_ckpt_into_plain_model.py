# expect: state-dict-mismatch
# A checkpoint written by a LightningModule-style wrapper (the network under self.model, so keys
# start with "model.") loaded into the bare network with load_state_dict(ckpt["state_dict"]).
import os
import tempfile

import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(28 * 28, 64)
        self.decoder = nn.Linear(64, 28 * 28)

    def forward(self, x):
        return self.decoder(torch.relu(self.encoder(x)))


class LitAutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = Net()


path = os.path.join(tempfile.mkdtemp(), "epoch=9-step=1000.ckpt")
lit = LitAutoEncoder()
torch.save({"epoch": 9, "global_step": 1000, "state_dict": lit.state_dict()}, path)

net = Net()
ckpt = torch.load(path)
net.load_state_dict(ckpt["state_dict"])
