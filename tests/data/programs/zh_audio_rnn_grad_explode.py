# expect: gradient-explosion
# 语音帧序列用最普通的 nn.RNN（relu 激活）建模，权重初始化放大了，序列又长（150帧），
# 也没做梯度裁剪。打印每步的梯度范数。
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNN(20, 64, nonlinearity="relu", batch_first=True)
for name, p in rnn.named_parameters():
    if "weight_hh" in name:
        nn.init.normal_(p, std=0.18)
fc = nn.Linear(64, 5)
opt = torch.optim.SGD(list(rnn.parameters()) + list(fc.parameters()), lr=1e-3)
for step in range(1, 3):
    帧 = torch.randn(8, 150, 20)
    标签 = torch.randint(0, 5, (8,))
    out, _ = rnn(帧)
    loss = nn.functional.cross_entropy(fc(out[:, -1]), 标签)
    opt.zero_grad()
    loss.backward()
    总范数 = torch.nn.utils.clip_grad_norm_(rnn.parameters(), float("inf"))
    opt.step()
    print(f"step {step} loss {loss.item():.4e} 梯度范数 {总范数.item():.4e}")
