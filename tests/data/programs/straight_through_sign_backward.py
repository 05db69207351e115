# expect: custom-function-gradient
# After https://github.com/huawei-noah/AdderNet/issues/21 and
# https://github.com/1zb/pytorch-image-comp-rnn/issues/4 (returned an incorrect number of
# gradients): a binarizer with a straight-through estimator whose forward takes a threshold too.
import torch
import torch.nn as nn


class BinarizeSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, threshold):
        return (x > threshold).float() * 2 - 1

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output  # straight through


class BinaryNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.fc2 = nn.Linear(32, 2)

    def forward(self, x):
        h = BinarizeSTE.apply(self.fc1(x), 0.0)
        return self.fc2(h)


model = BinaryNet()
opt = torch.optim.Adam(model.parameters())
x, y = torch.randn(8, 16), torch.randint(0, 2, (8,))
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
opt.step()
print("ok", loss.item())
