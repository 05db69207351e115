# expect: pickle-local-object
# After https://github.com/akamaster/pytorch_resnet_cifar10/issues/11 and
# https://github.com/learnables/learn2learn/issues/182 (Can't pickle local object
# '...__init__.<locals>.<lambda>'): the whole model is saved, and it holds a lambda.
import os
import tempfile

import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, cin, cout, act="relu"):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, 3, padding=1)
        self.act = (lambda x: torch.clamp(x, min=0)) if act == "relu" else torch.tanh

    def forward(self, x):
        return self.act(self.conv(x))


model = nn.Sequential(Block(3, 8), Block(8, 8), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))
out = model(torch.randn(2, 3, 16, 16))
print("forward ok", tuple(out.shape))
ckpt_dir = tempfile.mkdtemp()
torch.save(model, os.path.join(ckpt_dir, "model_epoch_1.pth"))
print("saved")
