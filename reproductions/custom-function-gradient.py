"""custom-function-gradient: a hand-written autograd.Function whose backward is wrong.

Swish, x * sigmoid(x), is written as a torch.autograd.Function to save memory; its backward
returns grad * sigmoid(x) and forgets the product rule's second term, x * s * (1 - s). Nothing
raises: the model trains on slightly wrong gradients. The script then does what every custom
Function needs, torch.autograd.gradcheck in float64, and prints its verdict, which names the
output and input whose Jacobians disagree. `--fixed` implements the full derivative, and the
same gradcheck passes.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.autograd import gradcheck
from torch.autograd.gradcheck import GradcheckError

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)


class Swish(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:  # type: ignore[override]
        ctx.save_for_backward(x)
        return x * torch.sigmoid(x)

    @staticmethod
    def backward(ctx, grad_out: torch.Tensor) -> torch.Tensor:  # type: ignore[override]
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(x)
        if fixed:
            return grad_out * (s + x * s * (1 - s))  # d/dx [x * sigmoid(x)]
        return grad_out * s  # the mistake: the derivative of x * s is not s


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1, self.fc2 = nn.Linear(8, 32), nn.Linear(32, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(Swish.apply(self.fc1(x)))


x = torch.randn(256, 8)
y = (x[:, :2] ** 2).sum(1, keepdim=True)
model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(1, 6):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch} | loss {loss.item():.4f}")

# Check the backward against finite differences: float64, small inputs, requires_grad.
inputs = (torch.randn(6, dtype=torch.float64, requires_grad=True),)
try:
    print("gradcheck passed:", gradcheck(Swish.apply, inputs, eps=1e-6, atol=1e-4))
except GradcheckError as e:
    print(f"{type(e).__name__}: {e}")
