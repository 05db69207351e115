# expect: optimizer-step-no-update
# fault-step: 0
# source: https://github.com/vllm-project/speculators/pull/765
# summary: a speculative-decoding draft layer trained fully in bfloat16 with torch's AdamW; every normalization weight (input/post-attention layernorm, q_norm, k_norm, hidden_norm, norm) starts at 1.0, where an update below 2^-8 rounds back, and ends training still exactly 1.0 while the linear layers learn
import torch
from torch import nn
from torch.nn import functional as F

import diagnoser


class DraftLayer(nn.Module):
    def __init__(self, hidden: int = 64, heads: int = 4, vocab: int = 128) -> None:
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.hidden_norm = nn.RMSNorm(hidden)
        self.input_layernorm = nn.RMSNorm(hidden)
        self.q_proj, self.k_proj = nn.Linear(hidden, hidden, bias=False), nn.Linear(hidden, hidden, bias=False)
        self.v_proj, self.o_proj = nn.Linear(hidden, hidden, bias=False), nn.Linear(hidden, hidden, bias=False)
        self.q_norm, self.k_norm = nn.RMSNorm(self.head_dim), nn.RMSNorm(self.head_dim)
        self.post_attention_layernorm = nn.RMSNorm(hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, 2 * hidden, bias=False), nn.SiLU(), nn.Linear(2 * hidden, hidden, bias=False))
        self.norm = nn.RMSNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, verifier_hidden: torch.Tensor) -> torch.Tensor:
        b, t, _ = verifier_hidden.shape
        x = self.hidden_norm(verifier_hidden)
        h = self.input_layernorm(x)
        q = self.q_norm(self.q_proj(h).view(b, t, self.heads, -1)).transpose(1, 2)
        k = self.k_norm(self.k_proj(h).view(b, t, self.heads, -1)).transpose(1, 2)
        v = self.v_proj(h).view(b, t, self.heads, -1).transpose(1, 2)
        attn = F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).reshape(b, t, -1)
        x = x + self.o_proj(attn)
        x = x + self.mlp(self.post_attention_layernorm(x))
        return self.lm_head(self.norm(x))


torch.manual_seed(0)
draft = DraftLayer().to(torch.bfloat16)  # trained fully in bfloat16: no float32 copy anywhere
optimizer = torch.optim.AdamW(draft.parameters(), lr=3e-4, weight_decay=0.0)
with diagnoser.watch(draft) as w:
    for step in range(8):
        hidden = torch.randn(4, 16, 64, dtype=torch.bfloat16)  # the verifier's hidden states
        tokens = torch.randint(0, 128, (4, 16))  # the verifier's next tokens
        loss = F.cross_entropy(draft(hidden).float().flatten(0, 1), tokens.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        w.step(loss)
norms = {n: bool((p == 1).all()) for n, p in draft.named_parameters() if "norm" in n}
print("normalization weights still exactly 1.0:", norms)
