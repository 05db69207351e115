# expect: dim-out-of-range
# Feature engineering for one sample at a time: two 1-D feature vectors concatenated along dim=1,
# as if they were batched.
import torch


def handcrafted(x):
    return torch.stack([x.mean(), x.std(), x.max(), x.min()])


def embed(x, proj):
    return proj(x)


proj = torch.nn.Linear(16, 8)
sample = torch.randn(16)
with torch.no_grad():
    features = torch.cat([handcrafted(sample), embed(sample, proj)], dim=1)
print(features.shape)
