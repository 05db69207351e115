"""module-init-not-called: a model whose __init__ never calls super().__init__().

The classifier defines its own __init__ and assigns its layers at once, without calling
`super().__init__()` first. nn.Module.__init__ is what creates the dictionaries that register
submodules, parameters and buffers, so the first `self.encoder = nn.Sequential(...)` has nowhere to
go: "AttributeError: cannot assign module before Module.__init__() call". (An nn.Parameter gives
"cannot assign parameters ...", a register_buffer() "cannot assign buffer ..."; plain attributes
assigned first succeed, and the model then fails later with "'Classifier' object has no attribute
'_modules'" or '_backward_hooks'.)

`--fixed` calls `super().__init__()` as the first line of __init__.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, in_features: int, n_classes: int) -> None:
        if fixed:
            super().__init__()  # must run before any layer is assigned
        self.encoder = nn.Sequential(nn.Linear(in_features, 64), nn.ReLU())
        self.head = nn.Linear(64, n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.encoder(x))


model = Classifier(in_features=20, n_classes=5)
logits = model(torch.randn(16, 20))
n_params = sum(p.numel() for p in model.parameters())
print(f"logits {tuple(logits.shape)}, {n_params} parameters registered")
