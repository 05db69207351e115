"""ctc-input-layout: batch-first log-probabilities given to nn.CTCLoss, which wants (T, N, C).

A recogniser that works batch-first produces (batch=4, time=50, classes=20); nn.CTCLoss reads its
first input as (time, batch, classes), so it sees a batch of 50 and four input_lengths do not fit.
`--fixed` transposes to (time, batch, classes) before the loss.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

batch, time, classes, target_len = 4, 50, 20, 10
logits = torch.randn(batch, time, classes, requires_grad=True)  # a batch-first model's output
log_probs = logits.log_softmax(dim=2)
if fixed:
    log_probs = log_probs.transpose(0, 1)  # (time, batch, classes)
targets = torch.randint(1, classes, (batch, target_len))  # 0 is the blank
input_lengths = torch.full((batch,), time, dtype=torch.long)
target_lengths = torch.full((batch,), target_len, dtype=torch.long)
loss = nn.CTCLoss(blank=0)(log_probs, targets, input_lengths, target_lengths)
loss.backward()
print("ctc loss:", round(loss.item(), 4))
