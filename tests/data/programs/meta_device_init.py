# expect: device-mismatch
import torch
import torch.nn as nn

# build the big model without allocating memory, then load the weights
with torch.device("meta"):
    model = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))

state = {k: torch.randn_like(v, device="cpu") for k, v in model.state_dict().items()}
model.load_state_dict(state)  # copies into meta tensors: nothing is loaded
print(model(torch.randn(2, 512)))
