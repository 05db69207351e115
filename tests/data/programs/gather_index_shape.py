# expect: gather-index-shape
import torch

q = torch.randn(4, 6)
actions = torch.tensor([1, 0, 3, 2])
chosen = q.gather(1, actions)
