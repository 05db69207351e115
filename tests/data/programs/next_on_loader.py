# expect: dataloader-not-iterator
import torch
from torch.utils.data import DataLoader, TensorDataset

loader = DataLoader(TensorDataset(torch.randn(6, 2)), batch_size=2)
images = next(loader)
