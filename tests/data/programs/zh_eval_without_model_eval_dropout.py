# expect: dropout-active-at-eval
# 验证时忘了 model.eval()：Dropout 仍然生效，同一个验证集评估两次准确率都不一样。
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(400, 20)
y = (x[:, 0] + x[:, 1] > 0).long()
模型 = nn.Sequential(nn.Linear(20, 128), nn.ReLU(), nn.Dropout(0.5), nn.Linear(128, 2))
优化器 = torch.optim.Adam(模型.parameters(), lr=1e-3)
for _ in range(200):
    损失 = nn.functional.cross_entropy(模型(x[:300]), y[:300])
    优化器.zero_grad()
    损失.backward()
    优化器.step()


def 评估():
    with torch.no_grad():
        return (模型(x[300:]).argmax(1) == y[300:]).float().mean().item()


for 次 in range(1, 4):
    print(f"第 {次} 次评估同一个验证集，准确率: {评估():.4f}")
