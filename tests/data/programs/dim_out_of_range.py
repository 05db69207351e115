# expect: dim-out-of-range
import torch

logits = torch.randn(10)
probs = torch.softmax(logits, dim=1)
