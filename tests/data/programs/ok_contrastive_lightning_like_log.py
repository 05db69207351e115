# expect: none
# A correct contrastive (InfoNCE) pre-training loop printing Lightning-like progress lines: the
# epoch-mean loss falls from about log(2N) and the positive-pair accuracy rises.
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
protos = torch.randn(64, 32)
enc = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 16))
opt = torch.optim.Adam(enc.parameters(), lr=3e-3)
print(f"initial loss should be near log(63) = {math.log(63):.3f}")
for epoch in range(4):
    losses, accs = [], []
    for step in range(20):
        idx = torch.randint(0, 64, (32,))
        a = F.normalize(enc(protos[idx] + 0.1 * torch.randn(32, 32)), dim=1)
        b = F.normalize(enc(protos[idx] + 0.1 * torch.randn(32, 32)), dim=1)
        logits = a @ b.t() / 0.2
        target = torch.arange(32)
        loss = (F.cross_entropy(logits, target) + F.cross_entropy(logits.t(), target)) / 2
        opt.zero_grad()
        loss.backward()
        opt.step()
        losses.append(loss.item())
        accs.append((logits.argmax(1) == target).float().mean().item())
    loss_avg, acc = sum(losses) / len(losses), sum(accs) / len(accs)
    print(
        f"Epoch {epoch}: 100%|██████████| 20/20 [00:00<00:00, 95.1it/s, v_num=0, train_loss_epoch={loss_avg:.3f}, "
        f"pos_acc={acc:.3f}]"
    )
