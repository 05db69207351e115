# expect: stale-gradients
# fault-step: 1
# source: https://github.com/tenstorrent/tt-blacksmith/pull/711
# summary: a LoRA fine-tuning Trainer steps its optimizer but never zeroes the gradients after a step, so each update adds every earlier gradient of the adapters again
import torch
from torch import nn

import diagnoser


class LoRALinear(nn.Module):
    def __init__(self, base: nn.Linear, r: int = 4, alpha: float = 8.0) -> None:
        super().__init__()
        self.base = base
        self.base.weight.requires_grad_(False)
        self.base.bias.requires_grad_(False)
        self.lora_a = nn.Parameter(torch.randn(r, base.in_features) * 0.01)
        self.lora_b = nn.Parameter(torch.zeros(base.out_features, r))
        self.scale = alpha / r

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + (x @ self.lora_a.T @ self.lora_b.T) * self.scale


class Trainer:
    def __init__(self, model: nn.Module, lr: float = 1e-3) -> None:
        self.model = model
        params = [p for p in model.parameters() if p.requires_grad]
        self.optimizer = torch.optim.AdamW(params, lr=lr)

    def train_step(self, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        loss = nn.functional.cross_entropy(self.model(x), y)
        loss.backward()
        self.optimizer.step()  # no zero_grad() after the step
        return loss


torch.manual_seed(0)
model = nn.Sequential(LoRALinear(nn.Linear(32, 64)), nn.GELU(), LoRALinear(nn.Linear(64, 8)))
trainer = Trainer(model)
with diagnoser.watch(model) as w:
    for _ in range(6):
        loss = trainer.train_step(torch.randn(16, 32), torch.randint(0, 8, (16,)))
        w.step(loss)
