# expect: scalar-conversion
import torch

losses = torch.tensor([0.5, 0.4])
print("loss: %.3f" % losses.item())
