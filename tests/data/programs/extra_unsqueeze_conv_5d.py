# expect: conv-input-dims
# After "Expected 3D (unbatched) or 4D (batched) input to conv2d" reports: a batch from the
# DataLoader given an extra unsqueeze(0) "to add the batch dimension".
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.Flatten(), nn.LazyLinear(10))
loader = DataLoader(TensorDataset(torch.randn(32, 1, 28, 28), torch.randint(0, 10, (32,))), batch_size=8)
for images, labels in loader:
    images = images.unsqueeze(0)  # add batch dim
    out = model(images)
    print(out.shape)
