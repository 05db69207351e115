# expect: dim-out-of-range
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(20, 50), nn.ReLU(), nn.Linear(50, 3))
sample = torch.randn(20)  # one example from the test set
probs = torch.softmax(model(sample), dim=1)
print(probs)
