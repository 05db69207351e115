# expect: rnn-input-size
# After "input.size(-1) must be equal to input_size" reports: sensor windows stored as
# (batch, channels, time), fed to a batch_first LSTM that expects (batch, time, channels).
import torch
import torch.nn as nn


class SensorNet(nn.Module):
    def __init__(self, n_channels=6, hidden=32, n_classes=4):
        super().__init__()
        self.lstm = nn.LSTM(n_channels, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, n_classes)

    def forward(self, x):
        out, _ = self.lstm(x)
        return self.fc(out[:, -1])


windows = torch.randn(10, 6, 50)  # (batch, channels, time) from the preprocessing script
model = SensorNet()
print(model(windows).shape)
