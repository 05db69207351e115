# expect: nan-loss
# 中文日志里的 loss 变成 inf、nan（"训练几轮后 loss 变成 nan" 一类的帖子）：未归一化的回归目标配上偏大的学习率。
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.rand(256, 3) * 100
y = (x @ torch.tensor([[120.0], [80.0], [300.0]])) + 50
model = nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=2e-3)
for epoch in range(1, 16):
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"第{epoch}轮 训练损失: {loss.item():.4f}")
