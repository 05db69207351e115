# expect: loss-negative
# 二值分割：mask 是 PNG 读进来的 0/255，没有除以 255 就当 BCEWithLogitsLoss 的目标，
# 日志里 loss 变成负数。
import torch
import torch.nn as nn

torch.manual_seed(0)
图像 = torch.randn(16, 1, 32, 32)
掩码 = (图像 > 0.5).float() * 255  # 0 或 255

模型 = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU(), nn.Conv2d(8, 1, 3, padding=1))
优化器 = torch.optim.Adam(模型.parameters(), lr=1e-3)
损失函数 = nn.BCEWithLogitsLoss()
for 轮 in range(1, 9):
    预测 = 模型(图像)
    损失 = 损失函数(预测, 掩码)
    优化器.zero_grad()
    损失.backward()
    优化器.step()
    print(f"Epoch {轮}/8  train_loss: {损失.item():.4f}")
