"""state-dict-mismatch: a checkpoint saved from nn.DataParallel, loaded into the plain model.

Training wrapped the classifier in nn.DataParallel (DistributedDataParallel does the same) and
saved `model.state_dict()`. The wrapper keeps the real network in its `.module` attribute, so every
key in that checkpoint starts with "module." ("module.features.0.weight"). The inference code
builds the plain classifier and calls load_state_dict: none of its keys ("features.0.weight") is in
the checkpoint and none of the checkpoint's keys is in the model, so torch lists them all:
"Error(s) in loading state_dict for Classifier: Missing key(s) in state_dict: "features.0.weight",
... Unexpected key(s) in state_dict: "module.features.0.weight", ...".

`--fixed` strips the "module." prefix with torch's own helper
(torch.nn.modules.utils.consume_prefix_in_state_dict_if_present) before loading; saving
`model.module.state_dict()` in the first place avoids it altogether.
"""

import io

import torch
from _common import fixed_flag
from torch import nn
from torch.nn.modules.utils import consume_prefix_in_state_dict_if_present

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(nn.Linear(20, 64), nn.ReLU())
        self.head = nn.Linear(64, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(self.features(x))


# --- train.py: the model is wrapped for multi-GPU training, and the wrapper is what gets saved
model = nn.DataParallel(Classifier())  # on a CPU-only machine it simply calls the module
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 20), torch.randint(0, 3, (64,))
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
optimizer.step()
checkpoint = io.BytesIO()  # stands in for "classifier.pt"
torch.save(model.state_dict(), checkpoint)

# --- predict.py: the plain model loads the wrapper's checkpoint
checkpoint.seek(0)
state_dict = torch.load(checkpoint, map_location="cpu")
if fixed:
    consume_prefix_in_state_dict_if_present(state_dict, "module.")
net = Classifier()
net.load_state_dict(state_dict)
net.eval()
print("loaded", len(state_dict), "tensors; predictions:", net(x[:5]).argmax(1).tolist())
