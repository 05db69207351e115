# expect: ddp-gradients-not-synchronised
# fault-step: 0
# ranks: 2
# source: https://github.com/jingyaogong/minimind/pull/854
# summary: the RL trainer wraps the policy in DistributedDataParallel but runs the loss forward through model.module; backward then all-reduces nothing and each rank trains on its own gradients
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel

import diagnoser

dist.init_process_group("gloo")
rank = dist.get_rank()
torch.manual_seed(0)
policy = nn.Sequential(nn.Linear(16, 64), nn.Tanh(), nn.Linear(64, 8))
model = DistributedDataParallel(policy)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
model_unwrapped = model.module if isinstance(model, DistributedDataParallel) else model

torch.manual_seed(100 + rank)  # each rank samples its own rollouts
with diagnoser.watch(model) as w:
    for step in range(4):
        states = torch.randn(32, 16)
        actions = torch.randint(0, 8, (32,))
        advantages = torch.randn(32)
        logits = model_unwrapped(states)  # <-- DDP bypassed
        logp = torch.log_softmax(logits, -1).gather(1, actions[:, None]).squeeze(1)
        loss = -(logp * advantages).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        w.step(loss)
dist.destroy_process_group()
