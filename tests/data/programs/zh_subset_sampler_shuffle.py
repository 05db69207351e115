# expect: sampler-shuffle-exclusive
# 自己划分训练/验证集：用SubsetRandomSampler取下标，DataLoader里又顺手写了shuffle=True。
import numpy as np
import torch
from torch.utils.data import DataLoader, SubsetRandomSampler, TensorDataset

ds = TensorDataset(torch.randn(1000, 8), torch.randint(0, 2, (1000,)))
idx = np.random.permutation(len(ds))
split = int(0.8 * len(ds))
train_sampler = SubsetRandomSampler(idx[:split])
val_sampler = SubsetRandomSampler(idx[split:])
print(f"训练样本 {split} 条，验证样本 {len(ds) - split} 条")
train_loader = DataLoader(ds, batch_size=64, sampler=train_sampler, shuffle=True)
val_loader = DataLoader(ds, batch_size=64, sampler=val_sampler)
for xb, yb in train_loader:
    print(xb.shape)
    break
