"""frozen-layers-trained: a backbone frozen in the middle of training keeps changing.

The whole model trains for a few steps with SGD (momentum 0.9, weight decay), then the backbone
is frozen with `requires_grad_(False)` for the next phase, keeping the same optimizer. The loop
clears gradients with `zero_grad(set_to_none=False)`, so the backbone's `.grad` is a tensor of
zeros rather than None: SGD still applies momentum and weight decay to it, and the "frozen"
weights drift at every step. `diagnoser.watch` (when installed) names it at the first such step.

`--fixed` rebuilds the optimizer on the trainable parameters after freezing and clears gradients
with `set_to_none=True`: the backbone stays exactly as it was.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

try:  # the check that names the problem; the harm below shows without it
    from diagnoser import watch
except ImportError:
    watch = None

x = torch.randn(256, 16)
y = (x[:, :4].sum(1) > 0).long()
backbone = nn.Sequential(nn.Linear(16, 64), nn.ReLU())
model = nn.Sequential(backbone, nn.Linear(64, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-3)


def train(steps: int, w=None) -> None:
    for _ in range(steps):
        optimizer.zero_grad(set_to_none=fixed)
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        if w:
            w.step(loss)


train(5)  # phase 1: everything trains
backbone.requires_grad_(False)  # phase 2: only the head should train
if fixed:
    optimizer = torch.optim.SGD(
        [p for p in model.parameters() if p.requires_grad],
        lr=0.05,
        momentum=0.9,
        weight_decay=1e-3,
    )
frozen = [p.detach().clone() for p in backbone.parameters()]
w = watch(model, label="model").attach() if watch else None
train(20, w)
if w:
    w.detach()
drift = max(
    float((p.detach() - f).abs().max()) for p, f in zip(backbone.parameters(), frozen, strict=True)
)
print(
    f"backbone frozen (requires_grad=False) for 20 steps; largest change of a frozen weight: "
    f"{drift:.4g}"
)
