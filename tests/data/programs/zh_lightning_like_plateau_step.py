# expect: plateau-step-metric
# 仿照Lightning的打印格式自己写的训练循环；学习率调度换成了ReduceLROnPlateau，
# 但还是照着StepLR的写法在每个epoch结束时 scheduler.step()。
import torch
import torch.nn as nn

torch.manual_seed(0)
X, y = torch.randn(512, 20), torch.randint(0, 2, (512,))
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=2)
n_batches = 512 // 64
for epoch in range(3):
    for i in range(n_batches):
        xb, yb = X[i * 64 : (i + 1) * 64], y[i * 64 : (i + 1) * 64]
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    with torch.no_grad():
        val_loss = nn.functional.cross_entropy(model(X[:128]), y[:128]).item()
    print(
        f"Epoch {epoch}: 100%|██████████| {n_batches}/{n_batches} [00:00<00:00, 120.5it/s, "
        f"loss={loss.item():.3f}, val_loss={val_loss:.3f}]"
    )
    scheduler.step()  # 每个epoch更新学习率
