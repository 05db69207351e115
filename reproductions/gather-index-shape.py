"""gather-index-shape: picking each sample's log-probability of its label with gather.

`log_probs.gather(1, labels)` needs an index with as many dimensions as log_probs (here 2): one
column of indices per row. The labels from the DataLoader are 1-D, (batch,). `--fixed` adds the
column dimension with unsqueeze(1) and removes it again afterwards.
"""

import torch
from _common import fixed_flag

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

logits = torch.randn(8, 5)  # (batch, classes)
labels = torch.randint(0, 5, (8,))  # (batch,)
log_probs = logits.log_softmax(dim=1)
index = labels.unsqueeze(1) if fixed else labels  # (batch, 1) vs (batch,)
picked = log_probs.gather(1, index).squeeze(1)  # (batch,)
print("negative log-likelihood:", round(-picked.mean().item(), 4))
