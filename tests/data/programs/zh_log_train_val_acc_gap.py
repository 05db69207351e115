# expect: overfitting
# 中文日志的过拟合（"训练集准确率很高，验证集准确率上不去" 一类的帖子）：样本太少、模型太大。
import torch
import torch.nn as nn

torch.manual_seed(1)
x_tr = torch.randn(40, 50)
y_tr = ((x_tr[:, :3].sum(1) + torch.randn(40)) > 0).long()
x_va = torch.randn(400, 50)
y_va = ((x_va[:, :3].sum(1) + torch.randn(400)) > 0).long()
model = nn.Sequential(nn.Linear(50, 256), nn.ReLU(), nn.Linear(256, 2))
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(1, 21):
    out = model(x_tr)
    loss = nn.functional.cross_entropy(out, y_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        va = (model(x_va).argmax(1) == y_va).float().mean().item()
        va_loss = nn.functional.cross_entropy(model(x_va), y_va).item()
    tr = (out.argmax(1) == y_tr).float().mean().item()
    if epoch % 2 == 0:
        print(f"epoch {epoch} 训练集loss: {loss.item():.4f} 训练集准确率: {tr:.4f} 验证集loss: {va_loss:.4f} 验证集准确率: {va:.4f}")
