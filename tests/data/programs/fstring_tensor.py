# expect: tensor-format-string
import torch

acc = torch.tensor([0.81, 0.77])
print(f"val acc: {acc:.2%}")
