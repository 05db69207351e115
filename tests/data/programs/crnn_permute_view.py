# expect: view-non-contiguous
# After https://github.com/Suanmd/TR-MISR/issues/3 style code: a CRNN turns the conv feature map
# into a sequence with permute() and then view(), as OCR tutorials do.
import torch
import torch.nn as nn


class CRNN(nn.Module):
    def __init__(self, n_classes=37):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(1, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d((2, 1)),
        )
        self.rnn = nn.LSTM(64 * 8, 128, bidirectional=True, batch_first=True)
        self.fc = nn.Linear(256, n_classes)

    def forward(self, x):
        f = self.cnn(x)  # (b, c, h, w)
        b, c, h, w = f.shape
        seq = f.transpose(1, 3).view(b, w, -1)  # one step per column
        out, _ = self.rnn(seq)
        return self.fc(out)


model = CRNN()
images = torch.randn(4, 1, 32, 100)
print("logits", model(images).shape)
