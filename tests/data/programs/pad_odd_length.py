# expect: none
import torch
import torch.nn.functional as F

# pad the time axis of a (batch, channels, time) signal to a multiple of 16
x = torch.randn(2, 1, 1000)
missing = (16 - x.shape[-1] % 16) % 16
x = F.pad(x, (missing,))
print(x.shape)
