# expect: results-not-reproducible
# 固定了随机种子，但 manual_seed 写在了建模型之后；同样的代码跑两次，最后的准确率不一样。
import random

import torch
import torch.nn as nn

数据x = torch.linspace(-2, 2, 400).unsqueeze(1).repeat(1, 8) + 0.01 * torch.arange(8)
数据y = (数据x.sum(1) > 0.4).long()


def 跑一次(第几次):
    模型 = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
    torch.manual_seed(42)
    random.seed(42)
    优化器 = torch.optim.SGD(模型.parameters(), lr=0.05)
    for _ in range(30):
        loss = nn.functional.cross_entropy(模型(数据x), 数据y)
        优化器.zero_grad()
        loss.backward()
        优化器.step()
    acc = (模型(数据x).argmax(1) == 数据y).float().mean().item()
    print(f"第{第几次}次运行 seed=42 最终loss {loss.item():.4f} 准确率 {acc:.4f}")


跑一次(1)
跑一次(2)
跑一次(3)
