# expect: custom-function-gradient
# A custom autograd Function (a soft clamp used in a tabular model) checked with gradcheck: its
# backward forgets to multiply by grad_output.
import torch


class SoftClamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.tanh(x) * 3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return 3 * (1 - torch.tanh(x) ** 2)


x = torch.randn(6, 4, dtype=torch.double, requires_grad=True)
print("forward ok:", SoftClamp.apply(x).shape)
ok = torch.autograd.gradcheck(SoftClamp.apply, (x,), eps=1e-6, atol=1e-4)
print("gradcheck:", ok)
