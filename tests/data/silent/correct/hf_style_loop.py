# summary: a Hugging Face-style fine-tuning loop: dict batches with labels, the model returns the loss, AdamW with no decay on bias/LayerNorm, linear warmup from lr 0 (LambdaLR) stepped per update, bfloat16 autocast on CPU, gradient accumulation 4, clip_grad_norm_ 1.0
import torch
from torch import nn
from torch.utils.data import DataLoader, Dataset

import diagnoser


def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps):
    def lr_lambda(current_step):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        return max(0.0, float(num_training_steps - current_step) / float(max(1, num_training_steps - num_warmup_steps)))

    return torch.optim.lr_scheduler.LambdaLR(optimizer, lr_lambda)


class Output(dict):
    __getattr__ = dict.__getitem__


class TinyBertForSequenceClassification(nn.Module):
    def __init__(self, vocab=500, hidden=32, labels=3):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, hidden, padding_idx=0)
        self.LayerNorm = nn.LayerNorm(hidden)
        layer = nn.TransformerEncoderLayer(hidden, 4, 64, dropout=0.1, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.dropout = nn.Dropout(0.1)
        self.classifier = nn.Linear(hidden, labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.encoder(self.LayerNorm(self.embeddings(input_ids)), src_key_padding_mask=attention_mask == 0)
        logits = self.classifier(self.dropout(h[:, 0]))
        loss = nn.functional.cross_entropy(logits, labels) if labels is not None else None
        return Output(loss=loss, logits=logits)


class Examples(Dataset):
    def __init__(self, n=64):
        g = torch.Generator().manual_seed(0)
        self.ids = torch.randint(1, 500, (n, 12), generator=g)
        self.lengths = torch.randint(6, 13, (n,), generator=g)
        self.labels = torch.randint(0, 3, (n,), generator=g)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        mask = (torch.arange(12) < self.lengths[i]).long()
        return {"input_ids": self.ids[i] * mask, "attention_mask": mask, "labels": self.labels[i]}


torch.manual_seed(42)
model = TinyBertForSequenceClassification()
no_decay = ["bias", "LayerNorm.weight"]
grouped = [
    {"params": [p for n, p in model.named_parameters() if not any(nd in n for nd in no_decay)], "weight_decay": 0.01},
    {"params": [p for n, p in model.named_parameters() if any(nd in n for nd in no_decay)], "weight_decay": 0.0},
]
optimizer = torch.optim.AdamW(grouped, lr=5e-4)
loader = DataLoader(Examples(), batch_size=4, shuffle=True)
accumulation = 4
scheduler = get_linear_schedule_with_warmup(optimizer, 2, len(loader) // accumulation)
print(diagnoser.preflight(model, loader, optimizer=optimizer, compute_loss=lambda batch: model(**batch).loss))
model.train()
with diagnoser.watch(model) as w:
    for step, batch in enumerate(loader):
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            outputs = model(**batch)
        loss = outputs.loss / accumulation
        loss.backward()
        if (step + 1) % accumulation == 0:
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            w.step(outputs.loss)
