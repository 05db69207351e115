# expect: autocast-not-applied
# fault-step: 0
# source: https://github.com/karpathy/nanoGPT/pull/27
# summary: the training loop is device-independent except for its autocast context, hard-coded to device_type="cuda"; run with --device=cpu the model computes on the CPU, where that context casts nothing, so the bfloat16 run is a float32 one
import torch
from torch import nn
from torch.nn import functional as F

import diagnoser

# -----------------------------------------------------------------------------
batch_size = 8
block_size = 32
device = "cpu"  # --device=cpu: a dry run on a laptop
dtype = "bfloat16"
learning_rate = 6e-4
max_iters = 6
# -----------------------------------------------------------------------------
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
torch.manual_seed(1337)
data = torch.randint(0, 65, (10_000,))  # a character-level corpus, already encoded


def get_batch():
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i : i + block_size] for i in ix])
    y = torch.stack([data[i + 1 : i + 1 + block_size] for i in ix])
    return x.to(device), y.to(device)


class TinyLM(nn.Module):
    def __init__(self, vocab: int = 65, n_embd: int = 64) -> None:
        super().__init__()
        self.wte = nn.Embedding(vocab, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.mlp = nn.Sequential(nn.LayerNorm(n_embd), nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))
        self.lm_head = nn.Linear(n_embd, vocab, bias=False)

    def forward(self, idx, targets=None):
        pos = torch.arange(idx.size(1), device=idx.device)
        x = self.wte(idx) + self.wpe(pos)
        x = x + self.mlp(x)
        logits = self.lm_head(x)
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))
        return logits, loss


model = TinyLM().to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate, betas=(0.9, 0.95))
with diagnoser.watch(model) as w:
    for iter_num in range(max_iters):
        X, Y = get_batch()
        with torch.amp.autocast(device_type="cuda", dtype=ptdtype):
            logits, loss = model(X, Y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        optimizer.step()
        w.step(loss)
        print(f"iter {iter_num}: loss {loss.item():.4f}, logits dtype {logits.dtype} (wanted {ptdtype})")
