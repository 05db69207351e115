# expect: broadcast-mismatch
# After "The size of tensor a (10) must match the size of tensor b (12) at non-singleton
# dimension 1": mean/std computed on the whole training table, id and label columns included.
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(0)
train_table = rng.normal(size=(200, 12)).astype(np.float32)  # id, 10 features, label
mean = torch.from_numpy(train_table.mean(axis=0))
std = torch.from_numpy(train_table.std(axis=0))

features = torch.from_numpy(train_table[:, 1:11])
features = (features - mean) / std
model = nn.Linear(10, 1)
print(model(features).shape)
