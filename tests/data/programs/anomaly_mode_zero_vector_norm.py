# expect: anomaly-nan-backward
# After anomaly-mode reports ("Function 'XBackward0' returned nan values in its 0th output", as in
# https://github.com/karpathy/nn-zero-to-hero/issues/31's neighbours): embeddings L2-normalised by
# hand, a padding row of zeros in the batch, anomaly detection turned on to find the nan.
import torch
import torch.nn as nn

torch.autograd.set_detect_anomaly(True)


class Embedder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(50, 16, padding_idx=0)

    def forward(self, ids):
        v = self.emb(ids).sum(dim=1)
        return v / torch.sqrt((v ** 2).sum(dim=1, keepdim=True))


model = Embedder()
ids = torch.tensor([[3, 4, 5], [7, 8, 0], [0, 0, 0]])  # the last sentence is all padding
z = model(ids)
loss = (z @ z.t()).mean()
loss.backward()
print(loss.item())
