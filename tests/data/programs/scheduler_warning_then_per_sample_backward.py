# expect: grad-non-scalar
# A UserWarning printed first (the scheduler stepped before the optimizer, as in
# https://github.com/open-mmlab/mmdetection style trainers), then the real failure: a per-sample
# loss (reduction='none', kept for hard-example mining) backpropagated as it is.
import torch
import torch.nn as nn

model = nn.Linear(10, 3)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=5)
criterion = nn.CrossEntropyLoss(reduction="none")

for epoch in range(3):
    scheduler.step()
    print(f"epoch {epoch} lr {scheduler.get_last_lr()[0]:.4f}")
    x, y = torch.randn(16, 10), torch.randint(0, 3, (16,))
    losses = criterion(model(x), y)
    hard = losses > losses.median()
    optimizer.zero_grad()
    (losses * (1 + hard.float())).backward()
    optimizer.step()
