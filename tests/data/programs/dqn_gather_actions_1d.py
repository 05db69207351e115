# expect: gather-index-shape
# DQN update: the Q-value of the action taken in each transition is picked with gather, but the
# actions come out of the replay buffer as a 1-D tensor.
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)
q_net = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 2))
target_net = nn.Sequential(nn.Linear(4, 128), nn.ReLU(), nn.Linear(128, 2))
target_net.load_state_dict(q_net.state_dict())
buffer = [
    (torch.randn(4), random.randint(0, 1), random.random(), torch.randn(4), False)
    for _ in range(500)
]

batch = random.sample(buffer, 32)
s = torch.stack([b[0] for b in batch])
a = torch.tensor([b[1] for b in batch])
r = torch.tensor([b[2] for b in batch])
s2 = torch.stack([b[3] for b in batch])
done = torch.tensor([b[4] for b in batch], dtype=torch.float32)
print(f"buffer={len(buffer)} batch s={tuple(s.shape)} a={tuple(a.shape)}")
q = q_net(s).gather(1, a)
with torch.no_grad():
    target = r + 0.99 * (1 - done) * target_net(s2).max(1).values
loss = nn.functional.smooth_l1_loss(q.squeeze(1), target)
print("td loss", loss.item())
