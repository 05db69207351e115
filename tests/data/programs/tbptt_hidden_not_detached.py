# expect: backward-twice
import torch
import torch.nn as nn

torch.manual_seed(0)
text = torch.randint(0, 50, (1, 400))
emb = nn.Embedding(50, 32)
rnn = nn.LSTM(32, 64, batch_first=True)
head = nn.Linear(64, 50)
params = list(emb.parameters()) + list(rnn.parameters()) + list(head.parameters())
opt = torch.optim.Adam(params, lr=1e-3)

hidden = None
for start in range(0, 399 - 35, 35):
    x = text[:, start : start + 35]
    y = text[:, start + 1 : start + 36]
    out, hidden = rnn(emb(x), hidden)
    loss = nn.functional.cross_entropy(head(out).reshape(-1, 50), y.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"chunk {start // 35}: loss {loss.item():.3f}")
