# expect: none
# 正确的程序：手写两层 GCN 做节点分类（邻接矩阵对称归一化），训练 loss 下降，验证准确率上升。
import torch
import torch.nn as nn

torch.manual_seed(0)
n, c = 120, 3
标签 = torch.randint(0, c, (n,))
同类 = (标签[:, None] == 标签[None, :]).float()
adj = ((torch.rand(n, n) < 0.08 * 同类 + 0.005) | torch.eye(n, dtype=torch.bool)).float()
adj = ((adj + adj.t()) > 0).float()
d = adj.sum(1).pow(-0.5)
adj = d[:, None] * adj * d[None, :]
x = torch.randn(n, 8) + nn.functional.one_hot(标签, c).float().repeat(1, 3)[:, :8] * 0.5
训练, 验证 = torch.arange(0, 80), torch.arange(80, n)


class GCN(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1, self.l2 = nn.Linear(8, 16), nn.Linear(16, c)

    def forward(self, a, h):
        return a @ self.l2(torch.relu(a @ self.l1(h)))


模型 = GCN()
优化器 = torch.optim.Adam(模型.parameters(), lr=0.01, weight_decay=5e-4)
for epoch in range(1, 101):
    模型.train()
    out = 模型(adj, x)
    loss = nn.functional.cross_entropy(out[训练], 标签[训练])
    优化器.zero_grad()
    loss.backward()
    优化器.step()
    if epoch % 20 == 0:
        模型.eval()
        with torch.no_grad():
            acc = (模型(adj, x)[验证].argmax(1) == 标签[验证]).float().mean().item()
        print(f"epoch {epoch:3d} 训练loss {loss.item():.4f} 验证准确率 {acc:.3f}")
