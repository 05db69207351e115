"""vanishing-gradient: a 10-layer MLP with sigmoid activations and default initialisation.

The sigmoid's derivative is at most 0.25, so every layer the gradient passes on its way back
shrinks it: the per-layer gradient norms printed after the first and the last epoch fall by a
factor of about ten per layer, and the first layer gets 1e-9 of what the last one gets. The first
layers never learn and the loss stays at log(2). `--fixed` uses ReLU with Kaiming (He)
initialisation, which keeps the gradient's scale through the layers.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

x = torch.randn(1024, 16)
y = (x[:, :4].sum(1) > 0).long()
loader = DataLoader(TensorDataset(x, y), batch_size=64, shuffle=True)

layers: list[nn.Module] = []
width = 16
for _ in range(10):
    linear = nn.Linear(width, 32)
    width = 32
    if fixed:
        nn.init.kaiming_normal_(linear.weight, nonlinearity="relu")
        nn.init.zeros_(linear.bias)
    layers += [linear, nn.ReLU() if fixed else nn.Sigmoid()]
model = nn.Sequential(*layers, nn.Linear(32, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss()

EPOCHS = 8
for epoch in range(1, EPOCHS + 1):
    total, correct = 0.0, 0
    for xb, yb in loader:
        optimizer.zero_grad()
        logits = model(xb)
        loss = criterion(logits, yb)
        loss.backward()
        optimizer.step()
        total += loss.item() * len(xb)
        correct += (logits.argmax(1) == yb).sum().item()
    print(f"epoch {epoch} | loss {total / len(x):.4f} | acc {correct / len(x):.3f}")
    if epoch in (1, EPOCHS):  # the last batch's gradients, layer by layer
        for name, param in model.named_parameters():
            if name.endswith("weight") and param.grad is not None:
                print(f"  {name:<10} grad norm {param.grad.norm():.2e}")
