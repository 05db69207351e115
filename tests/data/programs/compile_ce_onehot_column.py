# expect: ce-target-dtype
import torch
import torch.nn as nn

net = nn.Linear(12, 4)
loss_fn = nn.CrossEntropyLoss()


@torch.compile
def compute_loss(x, labels):
    return loss_fn(net(x), labels)


x = torch.randn(6, 12)
labels = torch.tensor([[1], [0], [3], [2], [2], [1]])  # one column per sample, as read from a csv
loss = compute_loss(x, labels)
loss.backward()
