"""leaf-inplace: a hand-written gradient-descent update on weights that require grad.

Linear regression from scratch: `w` and `b` are created with requires_grad=True, the loss is
backpropagated, and the update is written as `w -= lr * w.grad`. That in-place update runs with
autograd still recording, on a leaf tensor that requires grad, so torch refuses: "a leaf Variable
that requires grad is being used in an in-place operation." (the same happens with
`model.fc.weight.normal_()` or `weight[0] = ...` for manual initialisation outside no_grad).

`--fixed` wraps the update in `torch.no_grad()` (which is what optimizer.step() does internally)
and clears the gradients after it.
"""

import torch
from _common import fixed_flag

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

x = torch.randn(100, 3)
y = x @ torch.tensor([2.0, -1.0, 0.5]) + 0.3
w = torch.zeros(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1

for _ in range(50):
    pred = x @ w + b
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    if fixed:
        with torch.no_grad():  # the update itself must not be recorded by autograd
            w -= lr * w.grad
            b -= lr * b.grad
        w.grad.zero_()
        b.grad.zero_()
    else:
        w -= lr * w.grad
        b -= lr * b.grad
print(f"loss {loss.item():.5f}, w = {[round(v, 2) for v in w.tolist()]}, b = {b.item():.2f}")
