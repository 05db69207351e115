# expect: tensor-bool-ambiguous
import torch

preds = torch.tensor([0.2, 0.8, 0.6])
if preds > 0.5:
    print("positive")
