# expect: conv-channels-mismatch
import torch
import torch.nn as nn


class ECGNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Sequential(
            nn.Conv1d(1, 16, 7, padding=3), nn.ReLU(), nn.AdaptiveAvgPool1d(1)
        )
        self.fc = nn.Linear(16, 5)

    def forward(self, x):
        return self.fc(self.conv(x).squeeze(-1))


signals = torch.randn(32, 187)  # batch of heartbeats, 187 samples each
print(ECGNet()(signals).shape)
