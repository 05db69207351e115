# expect: none
# The text-classification script's own tokenizer compiles a regex with an unbalanced bracket; the
# re.error is a mistake in the user's preprocessing, which no PyTorch entry explains.
import re

import torch
import torch.nn as nn

texts = ["Great movie!!", "terrible... would not watch again", "ok-ish, I guess"]
print(f"loaded {len(texts)} reviews")
TOKEN = re.compile(r"[\w']+|[.,!?;(]+)")
vocab = {}
ids = [[vocab.setdefault(t, len(vocab)) for t in TOKEN.findall(s.lower())] for s in texts]
emb = nn.EmbeddingBag(len(vocab), 16)
print(
    emb(torch.tensor(sum(ids, [])), torch.tensor([0, len(ids[0]), len(ids[0]) + len(ids[1])])).shape
)
