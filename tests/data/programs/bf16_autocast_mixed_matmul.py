# expect: dtype-mismatch
import torch
import torch.nn as nn

encoder = nn.Sequential(nn.Linear(32, 64), nn.GELU())
prototypes = torch.randn(10, 64)  # class centroids kept in float32
x = torch.randn(8, 32)
with torch.autocast("cpu", dtype=torch.bfloat16):
    emb = encoder(x)
sims = torch.mm(emb, prototypes.t())
print(sims.argmax(1))
