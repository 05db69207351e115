"""model-is-state-dict: a file saved with torch.save(model.state_dict()) loaded back as a model.

The training script saves the recommended way, `torch.save(model.state_dict(), "classifier.pt")`:
the file holds only the weights, an OrderedDict that maps parameter names to tensors, not the
model. The inference script then does `model = torch.load("classifier.pt")` and `model.eval()`,
so it calls a Module method on that OrderedDict: "AttributeError: 'collections.OrderedDict' object
has no attribute 'eval'" (`model(x)` would say "'collections.OrderedDict' object is not callable").

`--fixed` builds the model from its class first and loads the weights into it with
load_state_dict, then predicts.
"""

import tempfile
from pathlib import Path

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


class Classifier(nn.Module):
    def __init__(self, n_features=20, n_classes=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_features, 64), nn.ReLU(), nn.Linear(64, n_classes))

    def forward(self, x):
        return self.net(x)


with tempfile.TemporaryDirectory() as tmp:
    path = Path(tmp) / "classifier.pt"

    # --- train.py, at the end of training: save the weights only
    torch.save(Classifier().state_dict(), path)

    # --- predict.py
    if fixed:
        model = Classifier()  # the architecture comes from the code ...
        model.load_state_dict(torch.load(path, map_location="cpu"))  # ... the weights from the file
    else:
        model = torch.load(path, map_location="cpu")  # an OrderedDict of tensors, not a model
    model.eval()
    with torch.no_grad():
        predictions = model(torch.randn(4, 20)).argmax(dim=1)
    print("predictions:", predictions.tolist())
