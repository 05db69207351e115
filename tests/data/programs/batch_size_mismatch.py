# expect: batch-size-mismatch
import torch
import torch.nn as nn

out = torch.randn(32, 10)
y = torch.randint(0, 10, (64,))
loss = nn.CrossEntropyLoss()(out, y)
