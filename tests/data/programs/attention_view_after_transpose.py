# expect: view-non-contiguous
import torch
import torch.nn as nn


class MultiHead(nn.Module):
    def __init__(self, dim=64, heads=8):
        super().__init__()
        self.h = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.h, C // self.h).transpose(1, 2)
        k = k.view(B, T, self.h, C // self.h).transpose(1, 2)
        v = v.view(B, T, self.h, C // self.h).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)).softmax(-1)
        y = (att @ v).transpose(1, 2).view(B, T, C)
        return self.proj(y)


print(MultiHead()(torch.randn(2, 5, 64)).shape)
