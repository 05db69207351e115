"""numpy-requires-grad: computing a validation metric with numpy on the model's raw output.

After training a small regression model, the evaluation code calls `.numpy()` on the predictions
to compute R^2 with numpy. The predictions come out of the model with requires_grad=True (they are
still part of the autograd graph), so torch refuses: "Can't call numpy() on Tensor that requires
grad. Use tensor.detach().numpy() instead." The same happens through np.asarray(), matplotlib's
plt.plot(preds) or sklearn metrics, which call it for you.

`--fixed` evaluates under torch.no_grad() and converts with `.detach().cpu().numpy()`.
"""

import torch
from _common import fixed_flag, not_installed
from torch import nn

fixed = fixed_flag(__doc__)

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

torch.manual_seed(0)

x = torch.linspace(-2, 2, 200).unsqueeze(1)
y = 3 * x + 0.5 + 0.1 * torch.randn_like(x)
x_train, y_train, x_val, y_val = x[::2], y[::2], x[1::2], y[1::2]

model = nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for _ in range(100):
    loss = nn.functional.mse_loss(model(x_train), y_train)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

model.eval()
if fixed:
    with torch.no_grad():
        preds = model(x_val).detach().cpu().numpy()
else:
    preds = model(x_val).numpy()  # model.eval() does not turn off autograd
target = y_val.numpy()
r2 = 1 - np.sum((target - preds) ** 2) / np.sum((target - target.mean()) ** 2)
print(f"validation R^2: {r2:.3f}")
