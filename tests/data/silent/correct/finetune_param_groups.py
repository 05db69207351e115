# summary: fine-tuning with discriminative learning rates (backbone 10x lower than the head, set per group), warmup from lr 0 with LambdaLR per step, gradient accumulation 2, the backbone unfrozen after the first steps and added with add_param_group
import torch
from torch import nn

import diagnoser

torch.manual_seed(0)
backbone = nn.Sequential(nn.Linear(20, 64), nn.LayerNorm(64), nn.GELU(), nn.Linear(64, 64), nn.GELU())
head = nn.Linear(64, 3)
model = nn.Sequential(backbone, head)
for p in backbone.parameters():
    p.requires_grad = False
optimizer = torch.optim.AdamW([{"params": head.parameters(), "lr": 1e-3}], weight_decay=0.01)
warmup = 4
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, s / warmup))
batches = [(torch.randn(8, 20), torch.randint(0, 3, (8,))) for _ in range(16)]
print(diagnoser.preflight(model, batches[:2], nn.CrossEntropyLoss(), optimizer))
with diagnoser.watch(model) as w:
    for i, (x, y) in enumerate(batches):
        if i == 8:  # unfreeze the backbone with a lower learning rate
            for p in backbone.parameters():
                p.requires_grad = True
            optimizer.add_param_group({"params": backbone.parameters(), "lr": 1e-4})
            scheduler.base_lrs.append(1e-4)
            scheduler.lr_lambdas.append(scheduler.lr_lambdas[0])
        loss = nn.functional.cross_entropy(model(x), y) / 2
        loss.backward()
        if i % 2 == 1:
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            w.step(loss * 2)
