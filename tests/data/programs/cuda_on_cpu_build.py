# expect: cuda-not-compiled
import torch
import torch.nn as nn

device = "cuda"  # copied from a Colab notebook
model = nn.Linear(4, 2).to(device)
