# expect: anomaly-nan-backward
# Contrastive loss with a hand-written cosine similarity; padded items are all-zero embeddings, so
# their norm is 0. The user turned on anomaly detection to find where the nan comes from.
import torch
import torch.nn as nn

torch.autograd.set_detect_anomaly(True)


def cosine(a, b):
    return (a * b).sum(-1) / (a.norm(dim=-1) * b.norm(dim=-1))


proj = nn.Linear(32, 16, bias=False)
anchors = torch.randn(8, 32)
positives = torch.randn(8, 32)
positives[6:] = 0.0  # padding rows in the last batch

sim = cosine(proj(anchors), proj(positives))
loss = (1 - sim).mean()
print("loss:", loss.item())
loss.backward()
