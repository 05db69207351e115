# expect: none
# 正确的程序：训练集和验证集来自同一分布，训练损失和验证损失一起下降，验证准确率上升。
import torch
import torch.nn as nn

torch.manual_seed(1)
全部特征 = torch.randn(1200, 16)
全部标签 = (全部特征 @ torch.randn(16) > 0).long()
训练x, 训练y = 全部特征[:1000], 全部标签[:1000]
验证x, 验证y = 全部特征[1000:], 全部标签[1000:]
模型 = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2))
优化器 = torch.optim.SGD(模型.parameters(), lr=0.1, momentum=0.9)
for 轮 in range(1, 11):
    模型.train()
    for i in range(0, 1000, 50):
        损失 = nn.functional.cross_entropy(模型(训练x[i : i + 50]), 训练y[i : i + 50])
        优化器.zero_grad()
        损失.backward()
        优化器.step()
    模型.eval()
    with torch.no_grad():
        训练损失 = nn.functional.cross_entropy(模型(训练x), 训练y).item()
        验证输出 = 模型(验证x)
        验证损失 = nn.functional.cross_entropy(验证输出, 验证y).item()
        验证准确率 = (验证输出.argmax(1) == 验证y).float().mean().item()
    print(
        f"第{轮}轮 训练损失: {训练损失:.4f} 验证损失: {验证损失:.4f} 验证准确率: {验证准确率:.4f}"
    )
