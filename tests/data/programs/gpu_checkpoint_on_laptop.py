# expect: load-cuda-on-cpu
import os
import tempfile

import torch
import torch.nn as nn

path = os.path.join(tempfile.mkdtemp(), "best_model.pth")

# --- on the training server: the checkpoint's storages are tagged as living on cuda:0 ---
# (no GPU here, so the tag a CUDA machine writes is reproduced with torch's own hook for it)
torch.serialization.register_package(0, lambda storage: "cuda:0", lambda obj, location: None)
torch.save(nn.Linear(8, 2).state_dict(), path)
torch.serialization._package_registry.pop(0)

# --- on the laptop ---
model = nn.Linear(8, 2)
model.load_state_dict(torch.load(path))
print(model)
