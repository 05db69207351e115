# expect: inference-tensor-backward
# An actor-critic agent: the rollout is collected under torch.inference_mode() (fast, no graph);
# the update then feeds those states through the value network and backpropagates.
import torch
import torch.nn as nn

torch.manual_seed(0)
obs_dim, n_act = 8, 4
policy = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, n_act))
value = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))
opt = torch.optim.Adam(list(policy.parameters()) + list(value.parameters()), lr=3e-4)

states, rewards = [], []
with torch.inference_mode():
    s = torch.randn(obs_dim)
    for t in range(64):
        a = torch.distributions.Categorical(logits=policy(s)).sample()
        states.append(s)
        rewards.append(float(a == 2))
        s = torch.tanh(s + 0.1 * torch.randn(obs_dim))
    states = torch.stack(states)
print(f"episode return {sum(rewards):.1f}")

returns = torch.tensor(rewards).flip(0).cumsum(0).flip(0)
v = value(states).squeeze(-1)
value_loss = (returns - v).pow(2).mean()
opt.zero_grad()
value_loss.backward()
opt.step()
print("value loss", value_loss.item())
