# expect: multinomial-invalid-probs
# After https://github.com/vllm-project/vllm/issues/1623 and
# https://github.com/DLLXW/baby-llama2-chinese/issues/33 (probability tensor contains either
# `inf`, `nan` or element < 0): greedy decoding asked for with temperature 0.
import argparse

import torch
import torch.nn as nn


class CharLM(nn.Module):
    def __init__(self, vocab=40, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.GRU(dim, dim, batch_first=True)
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx):
        h, _ = self.rnn(self.emb(idx))
        return self.head(h)


@torch.no_grad()
def generate(model, idx, max_new_tokens, temperature):
    for _ in range(max_new_tokens):
        logits = model(idx)[:, -1, :] / temperature
        probs = torch.softmax(logits, dim=-1)
        nxt = torch.multinomial(probs, num_samples=1)
        idx = torch.cat([idx, nxt], dim=1)
    return idx


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--temperature", type=float, default=0.0)  # "0 = greedy"
    p.add_argument("--max-new-tokens", type=int, default=20)
    args = p.parse_args()
    torch.manual_seed(0)
    model = CharLM().eval()
    out = generate(model, torch.zeros(1, 1, dtype=torch.long), args.max_new_tokens, args.temperature)
    print(out.tolist())
