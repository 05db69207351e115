# expect: output-size-too-small
# Keyword-spotting CNN designed for 1 s clips (40x101 MFCC) fed 0.12 s clips (40x12): the fourth
# pooling stage has nothing left to pool.
import torch
import torch.nn as nn


def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))


model = nn.Sequential(
    block(1, 16), block(16, 32), block(32, 64), block(64, 64), nn.Flatten(), nn.LazyLinear(12)
)
mfcc = torch.randn(8, 1, 40, 12)
print(model(mfcc).shape)
