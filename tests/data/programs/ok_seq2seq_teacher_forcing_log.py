# expect: none
# A correct GRU seq2seq (copy-reverse task) trained with teacher forcing, logged as dicts: the
# token loss falls and the token accuracy rises.
import torch
import torch.nn as nn

torch.manual_seed(0)
V, L, H = 12, 6, 64
emb = nn.Embedding(V, 32)
enc = nn.GRU(32, H, batch_first=True)
dec = nn.GRU(32, H, batch_first=True)
out = nn.Linear(H, V)
params = [*emb.parameters(), *enc.parameters(), *dec.parameters(), *out.parameters()]
opt = torch.optim.Adam(params, lr=5e-3)
BOS = 0
for step in range(1, 91):
    src = torch.randint(1, V, (64, L))
    tgt = src.flip(1)
    _, h = enc(emb(src))
    dec_in = torch.cat([torch.full((64, 1), BOS), tgt[:, :-1]], 1)
    y, _ = dec(emb(dec_in), h)
    logits = out(y)
    loss = nn.functional.cross_entropy(logits.reshape(-1, V), tgt.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 15 == 0:
        acc = (logits.argmax(-1) == tgt).float().mean().item()
        print({"step": step, "loss": round(loss.item(), 4), "tok_acc": round(acc, 3)})
