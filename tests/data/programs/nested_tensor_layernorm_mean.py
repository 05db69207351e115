# expect: nested-tensor-unsupported-op
# Variable-length sentences kept as a nested tensor (no padding), then mean-pooled over tokens
# for a sentence classifier.
import torch
import torch.nn as nn

torch.manual_seed(0)
sents = [torch.randn(n, 32) for n in (5, 9, 3, 7)]
nt = torch.nested.nested_tensor(sents)
proj = nn.Linear(32, 32)
h = proj(nt)
print("projected:", h.is_nested)
pooled = h.mean(dim=1)
print(pooled.shape)
