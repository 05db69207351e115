# expect: ce-target-dtype
# Class ids stored as float (torch.Tensor(list) makes float32) and given to CrossEntropyLoss with
# a 3-D output (sequence labelling): the float target is read as probabilities of the wrong shape.
import torch
import torch.nn as nn

tags = [[0, 1, 2, 2, 0, 1], [1, 1, 0, 2, 2, 0]]
target = torch.Tensor(tags)  # float32
emissions = nn.Linear(16, 3)(torch.randn(2, 6, 16))  # (batch, seq, tags)
loss = nn.CrossEntropyLoss()(emissions.permute(0, 2, 1), target)
print(loss)
