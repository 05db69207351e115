# expect: none
# The run's JSON config was cut off (the editor crashed while saving): json.JSONDecodeError, which
# no PyTorch entry explains.
import json
import os
import tempfile

import torch.nn as nn

cfg_path = os.path.join(tempfile.mkdtemp(), "config.json")
with open(cfg_path, "w") as f:
    f.write('{"model": {"hidden": 128, "layers": 2}, "train": {"lr": 0.001, "epochs": ')

with open(cfg_path) as f:
    cfg = json.load(f)
model = nn.LSTM(32, cfg["model"]["hidden"], cfg["model"]["layers"])
print(model)
