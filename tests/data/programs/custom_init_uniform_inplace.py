# expect: leaf-inplace
# A hand-written layer initialises its Parameter with an in-place uniform_ on an expression of it
# outside torch.no_grad() (nn.init.* would wrap it): the parameter is a leaf that requires grad.
import math

import torch
import torch.nn as nn


class MyLinear(nn.Module):
    def __init__(self, fan_in, fan_out):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(fan_out, fan_in))
        self.bias = nn.Parameter(torch.empty(fan_out))
        bound = 1 / math.sqrt(fan_in)
        self.weight.uniform_(-bound, bound)
        self.bias.zero_()

    def forward(self, x):
        return x @ self.weight.t() + self.bias


layer = MyLinear(10, 4)
print(layer(torch.randn(2, 10)))
