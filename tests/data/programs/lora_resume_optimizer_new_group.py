# expect: optimizer-state-mismatch
# LoRA written by hand: the first run trained the adapters of the attention projections only;
# the resumed run also adapts the MLP, so its optimizer group holds more tensors than the saved one.
import os
import tempfile

import torch
import torch.nn as nn


class LoRA(nn.Module):
    def __init__(self, dim, r=8):
        super().__init__()
        self.A = nn.Parameter(torch.randn(r, dim) * 0.01)
        self.B = nn.Parameter(torch.zeros(dim, r))

    def forward(self, x):
        return x @ self.A.t() @ self.B.t()


ckpt = os.path.join(tempfile.mkdtemp(), "lora_step500.pt")
adapters = nn.ModuleDict({"q": LoRA(64), "v": LoRA(64)})
opt = torch.optim.AdamW(adapters.parameters(), lr=2e-4)
loss = sum(m(torch.randn(4, 64)).sum() for m in adapters.values())
loss.backward()
opt.step()
torch.save({"adapters": adapters.state_dict(), "optim": opt.state_dict(), "step": 500}, ckpt)
print("saved", ckpt)

# --- resume, now with MLP adapters too ---
adapters = nn.ModuleDict({"q": LoRA(64), "v": LoRA(64), "fc1": LoRA(64), "fc2": LoRA(64)})
opt = torch.optim.AdamW(adapters.parameters(), lr=2e-4)
state = torch.load(ckpt)
adapters.load_state_dict(state["adapters"], strict=False)
opt.load_state_dict(state["optim"])
print("resumed from step", state["step"])
