# expect: result-type-cast
import torch

correct = torch.zeros(2, dtype=torch.long)
preds = torch.tensor([0.9, 0.2])
correct += preds
