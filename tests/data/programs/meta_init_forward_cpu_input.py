# expect: device-mismatch
# A big model built under `with torch.device("meta")` to save memory (as LLM loading scripts do),
# then only the head's weights loaded for real: the forward mixes meta weights with CPU inputs.
import torch
import torch.nn as nn

with torch.device("meta"):
    backbone = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 64))
head = nn.Linear(64, 4)
model = nn.Sequential(backbone, head)
print("params:", sum(p.numel() for p in model.parameters()))
x = torch.randn(8, 32)
logits = model(x)
print(logits.shape)
