"""optimizer-step-no-update: a model cast to bfloat16 and trained with AdamW at lr=1e-5.

`model.to(torch.bfloat16)` makes the optimizer update bfloat16 weights. bfloat16 keeps 8 bits of
mantissa, so an AdamW update of about 1e-5 per weight rounds back to the same number: after 30
steps almost no weight has changed and the loss is where it started. No error is raised.
`diagnoser.watch` (when installed) names it at the first step.

`--fixed` keeps float32 master weights and runs the forward pass under
`torch.autocast(dtype=torch.bfloat16)`: the same rate moves every weight and the loss falls.
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
model = nn.Sequential(nn.Linear(16, 64), nn.ReLU(), nn.Linear(64, 2))
if not fixed:
    model = model.to(torch.bfloat16)  # the mistake: the optimizer now updates bfloat16 weights
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5)
before = [p.detach().clone() for p in model.parameters()]

w = watch(model, label="model").attach() if watch else None
losses = []
for _ in range(30):
    optimizer.zero_grad()
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=fixed):
        logits = model(x if fixed else x.to(torch.bfloat16))
    loss = nn.functional.cross_entropy(logits.float(), y)
    loss.backward()
    optimizer.step()
    losses.append(loss.item())
    if w:
        w.step(loss)
if w:
    w.detach()

changed = sum(int((p.detach() != b).sum()) for p, b in zip(model.parameters(), before, strict=True))
total = sum(b.numel() for b in before)
print(
    f"after 30 steps {100 * changed / total:.1f}% of the weights changed "
    f"(dtype {next(model.parameters()).dtype}); loss {losses[0]:.5f} -> {losses[-1]:.5f}"
)
