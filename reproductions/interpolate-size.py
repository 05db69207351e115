"""interpolate-size: upsampling segmentation logits to the mask's size with `mask.shape[1:]`.

The masks are (batch, 1, 64, 64), so `mask.shape[1:]` is (1, 64, 64): three sizes for an input with
two spatial dimensions. F.interpolate wants only the spatial sizes (H, W). `--fixed` passes
`mask.shape[-2:]`.
"""

import torch
import torch.nn.functional as F
from _common import fixed_flag

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

logits = torch.randn(2, 1, 32, 32)  # (batch, classes, H/2, W/2) from the decoder
mask = (torch.rand(2, 1, 64, 64) > 0.5).float()  # (batch, 1, H, W)
size = mask.shape[-2:] if fixed else mask.shape[1:]
upsampled = F.interpolate(logits, size=size, mode="bilinear", align_corners=False)
loss = F.binary_cross_entropy_with_logits(upsampled, mask)
print("upsampled:", tuple(upsampled.shape), "| loss", round(loss.item(), 4))
