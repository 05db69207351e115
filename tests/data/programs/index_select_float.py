# expect: index-dtype
import torch

features = torch.randn(100, 16)
# indices of the hard negatives, computed with a float ratio
ratio = 0.25
hard = torch.arange(0, 100) * ratio
hard = torch.floor(hard * 4)
subset = torch.index_select(features, 0, hard)
print(subset.shape)
