# expect: spawn-main-guard
import torch
import torch.multiprocessing as mp
from torch.utils.data import DataLoader, TensorDataset

mp.set_start_method("spawn", force=True)  # copied from a Windows/macOS tutorial
ds = TensorDataset(torch.randn(64, 4), torch.randint(0, 2, (64,)))
loader = DataLoader(ds, batch_size=16, num_workers=1)
for x, y in loader:
    print(x.shape)
