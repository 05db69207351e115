# expect: embedding-index-out-of-range
import torch
import torch.nn as nn

special = {"[PAD]": 0, "[UNK]": 1, "[CLS]": 2, "[SEP]": 3}
words = ["the", "cat", "sat", "on", "mat", "dog"]
vocab = dict(special, **{w: i + len(special) for i, w in enumerate(words)})


class TinyBert(nn.Module):
    def __init__(self, vocab_size, dim=32):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, dim)
        self.pos = nn.Embedding(16, dim)
        self.enc = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True), 1
        )

    def forward(self, ids):
        pos = torch.arange(ids.size(1)).unsqueeze(0)
        return self.enc(self.tok(ids) + self.pos(pos))


model = TinyBert(vocab_size=len(words))  # forgot the special tokens
ids = torch.tensor([[vocab["[CLS]"], vocab["the"], vocab["dog"], vocab["sat"], vocab["[SEP]"]]])
print(model(ids).shape)
