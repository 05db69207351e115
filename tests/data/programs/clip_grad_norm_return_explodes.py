# expect: gradient-explosion
# A ReLU RNN on long sequences with an identity recurrent init (IRNN) and no clipping;
# the user prints the total norm that clip_grad_norm_ returns (max_norm set so high it never
# clips) and the loss.
import torch
import torch.nn as nn

torch.manual_seed(0)
rnn = nn.RNN(8, 64, batch_first=True, nonlinearity="relu")
with torch.no_grad():
    rnn.weight_hh_l0.copy_(torch.eye(64))
head = nn.Linear(64, 1)
params = list(rnn.parameters()) + list(head.parameters())
opt = torch.optim.SGD(params, lr=1e-3)
for it in range(1, 9):
    x = torch.randn(16, 60, 8)
    y = torch.randn(16, 1)
    out, _ = rnn(x)
    loss = nn.functional.mse_loss(head(out[:, -1]), y)
    opt.zero_grad()
    loss.backward()
    total_norm = nn.utils.clip_grad_norm_(params, max_norm=1e12)
    opt.step()
    print(f"iter {it} loss {loss.item():.4e} grad_norm {total_norm.item():.4e}")
