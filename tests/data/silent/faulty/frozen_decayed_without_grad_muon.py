# expect: frozen-layers-trained
# fault-step: 0
# source: https://github.com/KellerJordan/Muon/issues/54
# summary: an optimizer that gives every parameter without a gradient a zero one (to keep ranks in step) and applies decoupled weight decay to all it holds: a pretrained embedding frozen with requires_grad=False, but passed to the optimizer with the rest, shrinks at every step
import torch
from torch import nn

import diagnoser


class MomentumWithDecay(torch.optim.Optimizer):
    """SGD with momentum and AdamW-style decay, written the way the report describes: a parameter
    with no gradient is given a zero one rather than skipped."""

    def __init__(self, params, lr: float = 0.02, weight_decay: float = 0.0, momentum: float = 0.95) -> None:
        super().__init__(params, dict(lr=lr, weight_decay=weight_decay, momentum=momentum))

    @torch.no_grad()
    def step(self, closure=None):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    p.grad = torch.zeros_like(p)  # every rank updates every tensor
                buf = self.state[p].setdefault("momentum_buffer", torch.zeros_like(p))
                buf.lerp_(p.grad, 1 - group["momentum"])
                p.mul_(1 - group["lr"] * group["weight_decay"])
                p.add_(buf, alpha=-group["lr"])


class Classifier(nn.Module):
    def __init__(self, vocab: int = 100, dim: int = 32) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)  # pretrained, kept frozen
        self.hidden = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, 2)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.out(torch.relu(self.hidden(self.embed(tokens).mean(1))))


torch.manual_seed(0)
model = Classifier()
model.embed.weight.requires_grad_(False)
pretrained = model.embed.weight.detach().clone()
optimizer = MomentumWithDecay(list(model.parameters()), lr=0.02, weight_decay=0.1)
with diagnoser.watch(model) as w:
    for _ in range(5):
        tokens, labels = torch.randint(0, 100, (16, 12)), torch.randint(0, 2, (16,))
        loss = nn.functional.cross_entropy(model(tokens), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        w.step(loss)
print("frozen embedding changed:", not torch.equal(model.embed.weight, pretrained))
