# expect: none
# 正确的程序：训练后保存 state_dict，再新建模型加载、eval()、
# 打印每个样本的预测概率（有的概率接近 0）。
import os
import tempfile

import torch
import torch.nn as nn


def 建模型():
    return nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))


torch.manual_seed(0)
x = torch.randn(300, 4)
y = x[:, :3].argmax(1)
模型 = 建模型()
优化器 = torch.optim.Adam(模型.parameters(), lr=1e-2)
for _ in range(300):
    损失 = nn.functional.cross_entropy(模型(x), y)
    优化器.zero_grad()
    损失.backward()
    优化器.step()
路径 = os.path.join(tempfile.mkdtemp(), "best.pt")
torch.save(模型.state_dict(), 路径)

新模型 = 建模型()
新模型.load_state_dict(torch.load(路径))
新模型.eval()
with torch.no_grad():
    概率 = torch.softmax(新模型(x[:5]), dim=1)
for i, p in enumerate(概率):
    print(f"样本 {i}: 预测类别 {p.argmax().item()}, 概率 {[round(v, 4) for v in p.tolist()]}")
