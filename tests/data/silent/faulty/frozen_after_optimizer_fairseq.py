# expect: frozen-layers-trained
# fault-step: 2
# source: https://github.com/facebookresearch/fairseq/issues/4702
# summary: fc1/fc2 set to requires_grad=False after the optimizer was built; their zeroed (not None) grads keep Adam updating them, so the "frozen" FFN weights still change
import torch
from torch import nn

import diagnoser


class Layer(nn.Module):
    def __init__(self, d: int = 16) -> None:
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, 2, batch_first=True)
        self.fc1 = nn.Linear(d, 32)
        self.fc2 = nn.Linear(32, d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.self_attn(x, x, x, need_weights=False)[0]
        return x + self.fc2(torch.relu(self.fc1(x)))


def freeze_param_grad_zero(model: nn.Module) -> nn.Module:
    for name, param in model.named_parameters():
        if "fc1" in name or "fc2" in name:
            param.requires_grad = False
    return model


torch.manual_seed(0)
model = nn.Sequential(Layer(), Layer())
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

with diagnoser.watch(model) as w:
    for step in range(8):
        if step == 2:  # the fine-tuning stage starts: train attention only
            freeze_param_grad_zero(model)
        x = torch.randn(4, 6, 16)
        loss = (model(x) - x.flip(1)).pow(2).mean()
        optimizer.zero_grad(set_to_none=False)  # fairseq's optimizer zeroes in place
        loss.backward()
        optimizer.step()
        w.step(loss)
