# expect: multinomial-invalid-probs
# REINFORCE on a toy bandit: actions are sampled with torch.multinomial straight from the policy
# network's outputs (logits, some negative) instead of probabilities.
import torch
import torch.nn as nn

torch.manual_seed(3)
policy = nn.Sequential(nn.Linear(6, 32), nn.ReLU(), nn.Linear(32, 3))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
payout = torch.tensor([0.2, 0.5, 0.9])
for episode in range(1, 6):
    state = torch.randn(16, 6)
    logits = policy(state)
    actions = torch.multinomial(logits, 1).squeeze(1)
    reward = torch.bernoulli(payout[actions])
    logp = torch.log_softmax(logits, -1).gather(1, actions[:, None]).squeeze(1)
    loss = -(logp * (reward - reward.mean())).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"episode {episode} avg reward {reward.mean().item():.3f}")
