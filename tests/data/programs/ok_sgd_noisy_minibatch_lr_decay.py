# expect: none
# Correct: minibatch SGD with step decay; the per-batch loss is noisy as minibatch losses are, and
# the per-epoch mean falls.
import torch
import torch.nn as nn

torch.manual_seed(4)
x = torch.randn(1024, 8)
y = (x[:, 0] * x[:, 1] > 0).long()
model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.5)
for epoch in range(1, 9):
    perm = torch.randperm(1024)
    losses = []
    for b in range(0, 1024, 16):
        idx = perm[b : b + 16]
        loss = nn.functional.cross_entropy(model(x[idx]), y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
    sched.step()
    print(
        f"epoch {epoch} lr {sched.get_last_lr()[0]:.4f} batch losses (first 4) "
        f"{' '.join(f'{v:.3f}' for v in losses[:4])} mean {sum(losses) / len(losses):.4f}"
    )
