# expect: none
import torch
import torch.nn as nn


class Wrapper(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model

    def __getattr__(self, name):  # forward unknown attributes to the wrapped model
        try:
            return super().__getattr__(name)
        except AttributeError:
            return getattr(self.model, name)


w = Wrapper(nn.Linear(4, 2))
print(w.in_features)
print(w.does_not_exist)
