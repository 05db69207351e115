# expect: loss-not-decreasing
# 把 optimizer.zero_grad() 写在了 backward() 和 step() 之间：
# 每次 step 时梯度都已清零，参数不动，loss 纹丝不动。
import torch
import torch.nn as nn

torch.manual_seed(0)
数据 = torch.randn(256, 10)
标签 = (数据[:, :3].sum(1) > 0).long()
模型 = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2))
优化器 = torch.optim.Adam(模型.parameters(), lr=1e-2)

for epoch in range(1, 11):
    输出 = 模型(数据)
    损失 = nn.functional.cross_entropy(输出, 标签)
    损失.backward()
    优化器.zero_grad()
    优化器.step()
    准确率 = (输出.argmax(1) == 标签).float().mean().item()
    print(f"epoch {epoch:2d} | 训练损失 {损失.item():.4f} | 准确率 {准确率:.3f}")
