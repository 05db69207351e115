# expect: sampler-shuffle-exclusive
import torch
from torch.utils.data import DataLoader, TensorDataset, WeightedRandomSampler

ds = TensorDataset(torch.randn(10, 2), torch.randint(0, 2, (10,)))
weights = torch.ones(10)
sampler = WeightedRandomSampler(weights, num_samples=10)
loader = DataLoader(ds, batch_size=2, sampler=sampler, shuffle=True)
