# summary: nanoGPT at a small config: weight tying, decay/no-decay AdamW groups, cosine lr with warmup set per iteration, gradient accumulation, bfloat16 autocast on CPU, grad clipping, estimate_loss in eval mode
import math
from contextlib import nullcontext

import torch
import torch.nn as nn
from torch.nn import functional as F

import diagnoser

block_size, vocab_size, n_layer, n_head, n_embd, dropout = 16, 65, 2, 2, 32, 0.1
batch_size, gradient_accumulation_steps, max_iters, eval_interval = 4, 2, 8, 4
learning_rate, warmup_iters, lr_decay_iters, min_lr = 1e-3, 2, 8, 1e-4


class CausalSelfAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.attn_dropout, self.resid_dropout = nn.Dropout(dropout), nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(n_embd, dim=2)
        q, k, v = (t.view(B, T, n_head, C // n_head).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, dropout_p=dropout if self.training else 0, is_causal=True)
        return self.resid_dropout(self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C)))


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.c_fc, self.gelu = nn.Linear(n_embd, 4 * n_embd), nn.GELU()
        self.c_proj, self.dropout = nn.Linear(4 * n_embd, n_embd), nn.Dropout(dropout)

    def forward(self, x):
        return self.dropout(self.c_proj(self.gelu(self.c_fc(x))))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.ln_1, self.attn = nn.LayerNorm(n_embd), CausalSelfAttention()
        self.ln_2, self.mlp = nn.LayerNorm(n_embd), MLP()

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(vocab_size, n_embd), wpe=nn.Embedding(block_size, n_embd),
            drop=nn.Dropout(dropout), h=nn.ModuleList([Block() for _ in range(n_layer)]),
            ln_f=nn.LayerNorm(n_embd),
        ))
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight
        self.apply(self._init_weights)
        for pn, p in self.named_parameters():
            if pn.endswith("c_proj.weight"):
                torch.nn.init.normal_(p, mean=0.0, std=0.02 / math.sqrt(2 * n_layer))

    def _init_weights(self, module):
        if isinstance(module, nn.Linear):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)
            if module.bias is not None:
                torch.nn.init.zeros_(module.bias)
        elif isinstance(module, nn.Embedding):
            torch.nn.init.normal_(module.weight, mean=0.0, std=0.02)

    def forward(self, idx, targets=None):
        pos = torch.arange(0, idx.size(1), dtype=torch.long)
        x = self.transformer.drop(self.transformer.wte(idx) + self.transformer.wpe(pos))
        for block in self.transformer.h:
            x = block(x)
        logits = self.lm_head(self.transformer.ln_f(x))
        loss = None if targets is None else F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss

    def configure_optimizers(self, weight_decay, learning_rate, betas):
        param_dict = {pn: p for pn, p in self.named_parameters() if p.requires_grad}
        decay_params = [p for p in param_dict.values() if p.dim() >= 2]
        nodecay_params = [p for p in param_dict.values() if p.dim() < 2]
        optim_groups = [{"params": decay_params, "weight_decay": weight_decay}, {"params": nodecay_params, "weight_decay": 0.0}]
        return torch.optim.AdamW(optim_groups, lr=learning_rate, betas=betas)


data = torch.randint(0, vocab_size, (2000,))


def get_batch():
    ix = torch.randint(len(data) - block_size, (batch_size,))
    return torch.stack([data[i : i + block_size] for i in ix]), torch.stack([data[i + 1 : i + 1 + block_size] for i in ix])


def get_lr(it):
    if it < warmup_iters:
        return learning_rate * (it + 1) / (warmup_iters + 1)
    if it > lr_decay_iters:
        return min_lr
    decay_ratio = (it - warmup_iters) / (lr_decay_iters - warmup_iters)
    return min_lr + 0.5 * (1.0 + math.cos(math.pi * decay_ratio)) * (learning_rate - min_lr)


@torch.no_grad()
def estimate_loss(model, ctx):
    model.eval()
    losses = []
    for _ in range(2):
        X, Y = get_batch()
        with ctx:
            losses.append(model(X, Y)[1].item())
    model.train()
    return sum(losses) / len(losses)


torch.manual_seed(1337)
ctx = torch.amp.autocast(device_type="cpu", dtype=torch.bfloat16) if True else nullcontext()
model = GPT()
optimizer = model.configure_optimizers(0.1, learning_rate, (0.9, 0.95))
print(diagnoser.preflight(model, [get_batch()], compute_loss=lambda b: model(*b)[1]))
X, Y = get_batch()
with diagnoser.watch(model) as w:
    for iter_num in range(max_iters):
        lr = get_lr(iter_num)
        for param_group in optimizer.param_groups:
            param_group["lr"] = lr
        if iter_num % eval_interval == 0:
            estimate_loss(model, ctx)
        for micro_step in range(gradient_accumulation_steps):
            with ctx:
                logits, loss = model(X, Y)
                loss = loss / gradient_accumulation_steps
            X, Y = get_batch()
            loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
        w.step(loss * gradient_accumulation_steps)
