# expect: none
# 正确的程序：每步打印 clip_grad_norm_ 返回的梯度范数和 loss，梯度范数平稳、loss 下降。
import torch
import torch.nn as nn

torch.manual_seed(0)
模型 = nn.Sequential(nn.Linear(10, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
优化器 = torch.optim.Adam(模型.parameters(), lr=1e-3)
w = torch.randn(10, 1)
for 步 in range(1, 201):
    x = torch.randn(64, 10)
    y = x @ w
    损失 = nn.functional.mse_loss(模型(x), y)
    优化器.zero_grad()
    损失.backward()
    梯度范数 = nn.utils.clip_grad_norm_(模型.parameters(), max_norm=5.0)
    优化器.step()
    if 步 % 20 == 0:
        print(f"步数 {步} | loss {损失.item():.4f} | 梯度范数 {梯度范数.item():.4f}")
