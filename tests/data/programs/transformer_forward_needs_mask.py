# expect: forward-missing-arg
# After "forward() missing 1 required positional argument" reports: the encoder's forward takes a
# padding mask, the evaluation code calls it with the tokens alone.
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, vocab=200, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2)
        self.cls = nn.Linear(dim, 2)

    def forward(self, tokens, padding_mask):
        h = self.enc(self.emb(tokens), src_key_padding_mask=padding_mask)
        return self.cls(h[:, 0])


def evaluate(model, tokens):
    model.eval()
    with torch.no_grad():
        return model(tokens).argmax(-1)


model = Encoder()
print(evaluate(model, torch.randint(1, 200, (4, 12))))
