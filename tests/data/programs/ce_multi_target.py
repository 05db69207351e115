# expect: ce-target-dtype
import torch
import torch.nn.functional as F

logits = torch.randn(8, 5)
y = torch.randint(0, 5, (8, 1))  # labels kept as a column
loss = F.cross_entropy(logits, y)
