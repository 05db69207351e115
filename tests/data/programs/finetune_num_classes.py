# expect: state-dict-mismatch
import os
import tempfile

import torch
import torch.nn as nn


class ResNetTiny(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()
        )
        self.fc = nn.Linear(16, num_classes)

    def forward(self, x):
        return self.fc(self.features(x))


path = os.path.join(tempfile.mkdtemp(), "imagenet_pretrained.pth")
torch.save(ResNetTiny().state_dict(), path)

model = ResNetTiny(num_classes=10)  # my dataset has 10 classes
model.load_state_dict(torch.load(path))
