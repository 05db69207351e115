# expect: ce-target-dtype
import torch
import torch.nn as nn
import numpy as np

labels = np.array([0, 2, 1, 1], dtype=np.float32)  # read from a csv
logits = torch.randn(4, 3, requires_grad=True)
criterion = nn.CrossEntropyLoss()
loss = criterion(logits, torch.from_numpy(labels).unsqueeze(1))
loss.backward()
