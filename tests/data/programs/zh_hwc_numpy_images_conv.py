# expect: conv-channels-mismatch
# 用 numpy 读进来的图片是 HWC 格式，直接 torch.from_numpy 后送进 Conv2d，忘了 permute 成 CHW。
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class 图片数据集(Dataset):
    def __init__(self, n=40):
        rng = np.random.default_rng(0)
        self.图片 = [rng.integers(0, 255, (64, 64, 3), dtype=np.uint8) for _ in range(n)]
        self.标签 = rng.integers(0, 2, n)

    def __len__(self):
        return len(self.图片)

    def __getitem__(self, i):
        img = torch.from_numpy(self.图片[i]).float() / 255.0  # (64, 64, 3)
        return img, int(self.标签[i])


模型 = nn.Sequential(
    nn.Conv2d(3, 16, 3, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(16, 2),
)
loader = DataLoader(图片数据集(), batch_size=8, shuffle=True)
for 图, 标 in loader:
    输出 = 模型(图)
    损失 = nn.functional.cross_entropy(输出, 标)
    print("损失", 损失.item())
