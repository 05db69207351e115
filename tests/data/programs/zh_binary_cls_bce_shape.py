# expect: bce-target-size
# 二分类：模型输出 (batch, 1)，标签是 (batch,)，直接喂给 BCEWithLogitsLoss。
import torch
import torch.nn as nn

torch.manual_seed(0)
特征 = torch.randn(200, 12)
标签 = (特征[:, 0] > 0).float()  # 形状 (200,)

模型 = nn.Sequential(nn.Linear(12, 32), nn.ReLU(), nn.Linear(32, 1))
损失函数 = nn.BCEWithLogitsLoss()
优化器 = torch.optim.Adam(模型.parameters(), lr=1e-3)

for 轮 in range(5):
    for i in range(0, 200, 16):
        x, y = 特征[i : i + 16], 标签[i : i + 16]
        loss = 损失函数(模型(x), y)
        优化器.zero_grad()
        loss.backward()
        优化器.step()
    print(f"第 {轮} 轮, loss = {loss.item():.4f}")
