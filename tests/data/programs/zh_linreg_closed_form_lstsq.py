# expect: removed-api
# 房价线性回归，用最小二乘直接求闭式解（参考的是一篇2019年的博客）。
import torch

torch.manual_seed(0)
面积 = torch.rand(200, 1) * 100 + 30
房龄 = torch.rand(200, 1) * 30
X = torch.cat([面积, 房龄, torch.ones(200, 1)], dim=1)
价格 = 3.2 * 面积 - 1.5 * 房龄 + 50 + torch.randn(200, 1) * 5
print("样本数:", X.shape[0])
解, _ = torch.lstsq(价格, X)
print("系数:", 解[:3].flatten().tolist())
