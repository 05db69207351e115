# expect: loss-oscillates
# 音频情感分类（特征是提好的 MFCC 均值），tqdm 风格的打印；学习率设成了 2.0，loss 一直上下跳，降不下去。
import torch
import torch.nn as nn

torch.manual_seed(0)
mfcc = torch.randn(1024, 40)
label = (mfcc[:, :5].sum(1) > 0).long()
model = nn.Sequential(nn.Linear(40, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.SGD(model.parameters(), lr=2.0)
total = 1024 // 32
for epoch in range(1, 4):
    for i in range(total):
        xb, yb = mfcc[i * 32 : (i + 1) * 32], label[i * 32 : (i + 1) * 32]
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if (i + 1) % 4 == 0:
            pct = int(100 * (i + 1) / total)
            print(
                f"Epoch {epoch}: {pct:3d}%|{'█' * (pct // 10):<10}| {i + 1}/{total} [loss={loss.item():.4f}]"
            )
