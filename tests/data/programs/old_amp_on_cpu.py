# expect: amp-deprecated-api
import torch
import torch.nn as nn

model = nn.Linear(16, 4)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.cuda.amp.GradScaler()
x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
for step in range(3):
    with torch.cuda.amp.autocast():
        loss = nn.functional.cross_entropy(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
    opt.zero_grad()
    print(f"step {step} loss {loss.item():.4f}")
