# expect: embedding-index-out-of-range
# After "IndexError: index out of range in self" reports: sequences padded with -1 (the label
# convention) instead of the embedding's padding index, after the script printed its model.
import torch
import torch.nn as nn


class BiLSTMTagger(nn.Module):
    def __init__(self, vocab=500, dim=32, tags=9):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim, padding_idx=0)
        self.lstm = nn.LSTM(dim, dim, batch_first=True, bidirectional=True)
        self.drop = nn.Dropout(0.3)
        self.out = nn.Linear(2 * dim, tags)

    def forward(self, tokens):
        h, _ = self.lstm(self.embed(tokens))
        return self.out(self.drop(h))


def pad(seqs, value=-1):
    n = max(len(s) for s in seqs)
    return torch.tensor([s + [value] * (n - len(s)) for s in seqs])


model = BiLSTMTagger()
print(model)
print(f"trainable params: {sum(p.numel() for p in model.parameters() if p.requires_grad):,}")
tokens = pad([[5, 17, 42, 8], [9, 3], [77, 12, 6]])
print(model(tokens).shape)
