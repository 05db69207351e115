# expect: collate-unequal-size
# A tokenised dataset returning dicts of variable-length input_ids, loaded without a padding
# collate_fn (DataCollatorWithPadding was left out).
import torch
from torch.utils.data import DataLoader, Dataset

texts = ["the cat sat", "a much longer sentence about nothing at all", "hi", "pytorch is fun"]


def tokenize(text):
    return [hash(w) % 1000 + 2 for w in text.split()]


class TextDataset(Dataset):
    def __init__(self, texts):
        self.enc = [tokenize(t) for t in texts]

    def __len__(self):
        return len(self.enc)

    def __getitem__(self, i):
        ids = torch.tensor(self.enc[i])
        return {"input_ids": ids, "attention_mask": torch.ones_like(ids), "labels": i % 2}


loader = DataLoader(TextDataset(texts), batch_size=2, shuffle=False)
for batch in loader:
    print(batch["input_ids"].shape)
