# expect: gradient-none
# 微调时在 forward 里对 backbone 的输出调用了 .detach()（本意是"省显存"），
# backbone 的梯度全是 None；用户打印每个参数的梯度来排查。
import torch
import torch.nn as nn


class 微调模型(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64))
        self.head = nn.Linear(64, 5)

    def forward(self, x):
        特征 = self.backbone(x).detach()
        return self.head(特征)


模型 = 微调模型()
损失 = nn.functional.cross_entropy(模型(torch.randn(16, 32)), torch.randint(0, 5, (16,)))
损失.backward()
for 名字, p in 模型.named_parameters():
    print(f"{名字:20s} grad: {None if p.grad is None else f'norm={p.grad.norm().item():.4f}'}")
