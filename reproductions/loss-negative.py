"""loss-negative: NLLLoss applied to softmax probabilities instead of log-probabilities.

The classifier ends in `nn.Softmax(dim=1)` and is trained with `nn.NLLLoss()`. NLLLoss does not
take a log itself: it returns -mean(input[i, target_i]), so on probabilities in [0, 1] it is
-mean(p_target), a number between -1 and 0. Training "improves" it by pushing it towards -1, and
the printed loss is negative from the first epoch.

`--fixed` drops the Softmax layer and trains the raw logits with `nn.CrossEntropyLoss()` (which is
log_softmax + NLLLoss in one numerically stable call): the loss is positive and falls.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

n, classes = 512, 4
centers = torch.randn(classes, 10) * 0.6
y = torch.randint(0, classes, (n,))
x = centers[y] + torch.randn(n, 10)

layers = [nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, classes)]
if fixed:
    model = nn.Sequential(*layers)  # outputs logits
    criterion = nn.CrossEntropyLoss()  # = NLLLoss(log_softmax(logits))
else:
    model = nn.Sequential(*layers, nn.Softmax(dim=1))  # outputs probabilities
    criterion = nn.NLLLoss()  # expects log-probabilities, gets probabilities
optimizer = torch.optim.Adam(model.parameters(), lr=3e-3)

for epoch in range(1, 11):
    total, correct = 0.0, 0
    for i in range(0, n, 64):
        xb, yb = x[i : i + 64], y[i : i + 64]
        out = model(xb)
        loss = criterion(out, yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        total += loss.item() * len(yb)
        correct += (out.argmax(1) == yb).sum().item()
    print(f"epoch {epoch:2d} | loss {total / n:.4f} | acc {correct / n:.3f}")
