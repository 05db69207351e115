"""optimizer-state-mismatch: resuming an optimizer that is built over other parameters.

Fine-tuning stage 1 freezes the backbone and gives the optimizer only the trainable parameters
(`filter(lambda p: p.requires_grad, ...)`, the head's weight and bias), then saves the model and
the optimizer. The resume script builds the model, forgets to freeze the backbone, and creates the
optimizer over `model.parameters()`: 6 parameters where the saved state has 2. An optimizer state
refers to its parameters by position, not by name, so optimizer.load_state_dict refuses: "loaded
state dict contains a parameter group that doesn't match the size of optimizer's group". Splitting
the parameters into other param groups (a lower lr for the backbone) fails the same way: "loaded
state dict has a different number of parameter groups".

`--fixed` builds the optimizer exactly as when it was saved (same frozen parameters, same groups,
same order) before loading its state.
"""

import io

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.backbone(x))


def freeze_backbone(model: Classifier) -> None:
    for p in model.backbone.parameters():
        p.requires_grad_(False)


x, y = torch.randn(64, 16), torch.randint(0, 3, (64,))

# --- stage 1: linear probing, only the head trains
model = Classifier()
freeze_backbone(model)
optimizer = torch.optim.AdamW(filter(lambda p: p.requires_grad, model.parameters()), lr=1e-3)
for _ in range(3):
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
checkpoint = io.BytesIO()  # stands in for "stage1.pt"
torch.save({"model": model.state_dict(), "optimizer": optimizer.state_dict()}, checkpoint)

# --- resume.py
checkpoint.seek(0)
ckpt = torch.load(checkpoint, map_location="cpu")
model = Classifier()
model.load_state_dict(ckpt["model"])
if fixed:
    freeze_backbone(model)
    params = [p for p in model.parameters() if p.requires_grad]
else:
    params = list(model.parameters())  # the mistake: the backbone is trainable again
optimizer = torch.optim.AdamW(params, lr=1e-3)
optimizer.load_state_dict(ckpt["optimizer"])
loss = nn.functional.cross_entropy(model(x), y)
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(f"resumed with {len(params)} parameters in the optimizer; loss {loss.item():.3f}")
