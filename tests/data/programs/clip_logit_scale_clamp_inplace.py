# expect: leaf-inplace
# A CLIP-style image/text contrastive model: the learnable temperature is clamped after each step
# as the CLIP code does, but without .data or torch.no_grad(). Warnings print first.
import math
import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.simplefilter("always")
torch.manual_seed(0)
img_enc, txt_enc = nn.Linear(128, 64), nn.Linear(96, 64)
logit_scale = nn.Parameter(torch.tensor(math.log(1 / 0.07)))
opt = torch.optim.AdamW([*img_enc.parameters(), *txt_enc.parameters(), logit_scale], lr=1e-3)
feats = torch.randn(32, 128)
caption_ids = torch.tensor(torch.arange(32))
for step in range(3):
    img = F.normalize(img_enc(feats), dim=-1)
    txt = F.normalize(txt_enc(torch.randn(32, 96)), dim=-1)
    logits = logit_scale.exp() * img @ txt.t()
    loss = (F.cross_entropy(logits, caption_ids) + F.cross_entropy(logits.t(), caption_ids)) / 2
    opt.zero_grad()
    loss.backward()
    opt.step()
    logit_scale.clamp_(0, math.log(100))
    print(f"step {step} loss {loss.item():.4f} scale {logit_scale.exp().item():.2f}")
