# expect: interpolate-size
import torch
import torch.nn.functional as F

feat = torch.randn(2, 16, 32, 32)
target = torch.randn(2, 3, 64, 64)
up = F.interpolate(feat, size=target.shape[1:], mode="bilinear", align_corners=False)
