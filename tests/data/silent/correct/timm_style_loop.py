# summary: a timm-style loop: AdamW with no weight decay on norms and biases, linear warmup then cosine (SequentialLR) stepped per update, label smoothing, mixup of the inputs, clip_grad_norm_, bfloat16 autocast on CPU, channels_last
import torch
from torch import nn

import diagnoser


def param_groups_weight_decay(model, weight_decay=0.05):
    decay, no_decay = [], []
    for name, param in model.named_parameters():
        (no_decay if param.ndim <= 1 or name.endswith(".bias") else decay).append(param)
    return [{"params": no_decay, "weight_decay": 0.0}, {"params": decay, "weight_decay": weight_decay}]


torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 24, 3, stride=2, padding=1), nn.BatchNorm2d(24), nn.SiLU(),
    nn.Conv2d(24, 48, 3, stride=2, padding=1), nn.BatchNorm2d(48), nn.SiLU(),
    nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(48, 8),
).to(memory_format=torch.channels_last)
optimizer = torch.optim.AdamW(param_groups_weight_decay(model), lr=1e-3)
warmup = torch.optim.lr_scheduler.LinearLR(optimizer, start_factor=0.1, total_iters=3)
cosine = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=9)
scheduler = torch.optim.lr_scheduler.SequentialLR(optimizer, [warmup, cosine], milestones=[3])
criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
batches = [(torch.randn(16, 3, 32, 32), torch.randint(0, 8, (16,))) for _ in range(10)]
print(diagnoser.preflight(model, batches[:2], criterion, optimizer))
with diagnoser.watch(model) as w:
    model.train()
    for x, y in batches:
        lam = 0.8
        x = lam * x + (1 - lam) * x.flip(0)
        target = lam * nn.functional.one_hot(y, 8).float() + (1 - lam) * nn.functional.one_hot(y.flip(0), 8).float()
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            output = model(x.contiguous(memory_format=torch.channels_last))
        loss = criterion(output.float(), target)
        optimizer.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        scheduler.step()
        w.step(loss)
