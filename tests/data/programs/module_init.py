# expect: module-init-not-called
import torch.nn as nn


class Head(nn.Module):
    def __init__(self, n):
        self.fc = nn.Linear(n, 1)
        super().__init__()


Head(4)
