# expect: forward-missing-arg
import torch
import torch.nn as nn


class BertLikeClassifier(nn.Module):
    def __init__(self, vocab=1000, dim=32, n_labels=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.cls = nn.Linear(dim, n_labels)

    def forward(self, input_ids, attention_mask):
        h = self.emb(input_ids) * attention_mask.unsqueeze(-1)
        return self.cls(h.sum(1) / attention_mask.sum(1, keepdim=True))


batch = {
    "input_ids": torch.randint(0, 1000, (4, 16)),
    "attention_mask": torch.ones(4, 16),
    "token_type_ids": torch.zeros(4, 16, dtype=torch.long),
    "labels": torch.tensor([0, 2, 1, 1]),
}
model = BertLikeClassifier()
logits = model(**batch)
