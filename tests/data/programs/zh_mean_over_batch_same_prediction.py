# expect: batch-collapsed
# 表格回归模型的 forward 里想做特征池化，结果 mean 写在了 batch 维（dim=0）上：
# 整个 batch 被压成一个样本，每条数据的预测值都一样，loss 靠广播照样算得出来。
import torch
import torch.nn as nn


class 回归模型(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(16, 32)
        self.out = nn.Linear(32, 1)

    def forward(self, x):  # x: (batch, 16)
        h = torch.relu(self.enc(x))
        h = h.mean(dim=0, keepdim=True)  # 池化
        return self.out(h)


torch.manual_seed(0)
x = torch.randn(256, 16)
y = x[:, :4].sum(1, keepdim=True)
模型 = 回归模型()
优化器 = torch.optim.Adam(模型.parameters(), lr=1e-2)
for epoch in range(1, 4):
    pred = 模型(x)
    loss = ((pred - y) ** 2).mean()
    优化器.zero_grad()
    loss.backward()
    优化器.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
with torch.no_grad():
    pred = 模型(x[:6])
print("输入形状:", tuple(x[:6].shape), "输出形状:", tuple(pred.shape))
print("前6个样本的预测:", [round(v, 4) for v in pred.expand(6, 1).flatten().tolist()])
print("前6个样本的真实值:", [round(v, 4) for v in y[:6].flatten().tolist()])
