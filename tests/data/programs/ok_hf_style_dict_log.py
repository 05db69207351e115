# expect: none
# Correct: a Trainer-like loop logging dicts ({'loss': ..., 'learning_rate': ..., 'epoch': ...})
# with a linear warmup then decay; the loss falls.
import torch
import torch.nn as nn

torch.manual_seed(0)
vocab, dim = 200, 32
ids = torch.randint(0, vocab, (512, 12))
labels = (ids[:, 0] % 2).long()
model = nn.Sequential(nn.EmbeddingBag(vocab, dim), nn.Linear(dim, 2))
opt = torch.optim.AdamW(model.parameters(), lr=5e-3)
total_steps, warmup = 64, 8
sched = torch.optim.lr_scheduler.LambdaLR(
    opt,
    lambda s: (
        (s + 1) / warmup if s < warmup else max(0.0, (total_steps - s) / (total_steps - warmup))
    ),
)
step = 0
for _epoch in range(4):
    for i in range(0, 512, 32):
        loss = nn.functional.cross_entropy(model(ids[i : i + 32]), labels[i : i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
        sched.step()
        step += 1
        if step % 8 == 0:
            print(
                {
                    "loss": round(loss.item(), 4),
                    "learning_rate": sched.get_last_lr()[0],
                    "epoch": round(step / 16, 2),
                }
            )
print(
    {"train_runtime": 1.23, "train_samples_per_second": 1664.2, "train_loss": 0.3121, "epoch": 4.0}
)
