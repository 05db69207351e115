# expect: underfitting
# 表格数据二分类（标签由特征的异或决定，非线性），模型只用了一层 Linear；
# 训练了很多轮，训练集和验证集的准确率都停在五成左右。
import torch
import torch.nn as nn

torch.manual_seed(0)


def 造数据(n):
    x = torch.randn(n, 10)
    y = ((x[:, 0] > 0) ^ (x[:, 1] > 0)).long()
    return x, y


训练x, 训练y = 造数据(2000)
验证x, 验证y = 造数据(500)
模型 = nn.Linear(10, 2)
优化器 = torch.optim.Adam(模型.parameters(), lr=1e-2)
for epoch in range(1, 61):
    loss = nn.functional.cross_entropy(模型(训练x), 训练y)
    优化器.zero_grad()
    loss.backward()
    优化器.step()
    if epoch % 10 == 0:
        with torch.no_grad():
            训练准确率 = (模型(训练x).argmax(1) == 训练y).float().mean().item()
            验证准确率 = (模型(验证x).argmax(1) == 验证y).float().mean().item()
        print(
            f"epoch {epoch:3d} | 训练loss {loss.item():.4f} | 训练准确率 {训练准确率:.3f} | 验证准确率 {验证准确率:.3f}"
        )
