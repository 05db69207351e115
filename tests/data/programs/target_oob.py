# expect: target-out-of-bounds
import torch
import torch.nn as nn

num_classes = 10
logits = torch.randn(4, num_classes)
labels = torch.tensor([1, 5, 10, 3])  # classes numbered 1..10
loss = nn.CrossEntropyLoss()(logits, labels)
