# expect: tensor-bool-ambiguous
import traceback

import torch
import torch.nn as nn

model = nn.Linear(4, 2)
best_loss = float("inf")
patience = 0
for epoch in range(3):
    val_loss = nn.functional.mse_loss(model(torch.randn(8, 4)), torch.randn(8, 2), reduction="none")
    try:
        if val_loss < best_loss:
            best_loss = val_loss
            patience = 0
    except Exception:
        traceback.print_exc()
    print(f"epoch {epoch} done")
