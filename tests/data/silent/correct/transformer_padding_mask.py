# summary: a transformer encoder tagger over padded sequences: key padding mask, ignore_index on the padded targets, Adam with a warmup (inverse-sqrt) LambdaLR per step, dropout, eval pass
import torch
from torch import nn

import diagnoser

PAD, VOCAB, TAGS = 0, 300, 7


class Tagger(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, d, padding_idx=PAD)
        self.pos = nn.Parameter(torch.zeros(1, 20, d))
        layer = nn.TransformerEncoderLayer(d, 4, 64, dropout=0.1, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.out = nn.Linear(d, TAGS)

    def forward(self, tokens):
        h = self.embed(tokens) + self.pos[:, : tokens.size(1)]
        return self.out(self.encoder(h, src_key_padding_mask=tokens == PAD))


def batch(n=8, length=20):
    lengths = torch.randint(5, length + 1, (n,))
    keep = torch.arange(length)[None] < lengths[:, None]
    tokens = torch.randint(1, VOCAB, (n, length)) * keep
    tags = torch.where(keep, torch.randint(0, TAGS, (n, length)), torch.full((n, length), -100))
    return tokens, tags


torch.manual_seed(0)
model = Tagger()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min((s + 1) ** -0.5, (s + 1) * 4**-1.5))
loss_fn = nn.CrossEntropyLoss(ignore_index=-100)
print(diagnoser.preflight(model, [batch()], compute_loss=lambda b: loss_fn(model(b[0]).transpose(1, 2), b[1])))
with diagnoser.watch(model) as w:
    for step in range(8):
        model.train()
        tokens, tags = batch()
        optimizer.zero_grad()
        loss = loss_fn(model(tokens).transpose(1, 2), tags)
        loss.backward()
        optimizer.step()
        scheduler.step()
        w.step(loss)
    model.eval()
    with torch.no_grad():
        model(batch()[0])
