# expect: index-dtype
# Token ids padded in a float numpy array (np.zeros defaults to float64) and converted with
# torch.tensor(..., dtype=torch.float32) "to match the model", then looked up in an embedding.
import numpy as np
import torch
import torch.nn as nn

sentences = [[5, 17, 3], [8, 2], [11, 4, 9, 30]]
max_len = max(len(s) for s in sentences)
padded = np.zeros((len(sentences), max_len))
for i, s in enumerate(sentences):
    padded[i, : len(s)] = s

ids = torch.tensor(padded, dtype=torch.float32)
embedding = nn.Embedding(50, 16, padding_idx=0)
vectors = embedding(ids)
print(vectors.mean(1).shape)
