# expect: none
# 正确的程序：REINFORCE 做多臂老虎机，策略用 softmax 概率采样，平均奖励逐渐上升。
import torch
import torch.nn as nn

torch.manual_seed(0)
中奖概率 = torch.tensor([0.1, 0.3, 0.8, 0.4])
策略 = nn.Parameter(torch.zeros(4))
优化器 = torch.optim.Adam([策略], lr=0.05)
for 回合 in range(1, 201):
    dist = torch.distributions.Categorical(logits=策略)
    动作 = dist.sample((64,))
    奖励 = torch.bernoulli(中奖概率[动作])
    loss = -(dist.log_prob(动作) * (奖励 - 奖励.mean())).mean()
    优化器.zero_grad()
    loss.backward()
    优化器.step()
    if 回合 % 40 == 0:
        print(
            f"回合 {回合} 平均奖励 {奖励.mean().item():.3f} 各臂概率 {[round(p, 2) for p in dist.probs.tolist()]}"
        )
