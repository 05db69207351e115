# expect: forward-missing-arg
# A Hugging Face-style model whose forward takes (input_ids, attention_mask, labels) called with
# model(**batch), where the custom collate only built input_ids and labels.
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


class Classifier(nn.Module):
    def __init__(self, vocab=1000, dim=32, num_labels=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.emb(input_ids) * attention_mask.unsqueeze(-1)
        logits = self.head(h.sum(1) / attention_mask.sum(1, keepdim=True))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return {"loss": loss, "logits": logits}


def collate(samples):
    width = max(len(s["ids"]) for s in samples)
    ids = torch.tensor([s["ids"] + [0] * (width - len(s["ids"])) for s in samples])
    return {"input_ids": ids, "labels": torch.tensor([s["label"] for s in samples])}


data = [{"ids": [5, 6, 7], "label": 0}, {"ids": [8, 9], "label": 2}, {"ids": [1], "label": 1}]
model = Classifier()
for batch in DataLoader(data, batch_size=2, collate_fn=collate):
    outputs = model(**batch)
    outputs["loss"].backward()
