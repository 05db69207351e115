# expect: amp-deprecated-api
# (Relabelled from autocast-not-applied after the first run: /work/shared/families.yaml lists
# "CUDA is not available ... Disabling autocast." as amp-deprecated-api's wording, and the output
# holds that warning and numbers of a working forward only.)
# Mixed precision copied from a GPU script and run on a CPU box: autocast is asked for the "cuda"
# device, so on CPU every matmul stays float32 and nothing gets faster.
import time

import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(512, 1024), nn.ReLU(), nn.Linear(1024, 512))
x = torch.randn(64, 512)
with torch.autocast(device_type="cuda", dtype=torch.float16):
    t0 = time.time()
    out = model(x)
    dt = time.time() - t0
print(f"forward {dt * 1000:.1f} ms, output dtype {out.dtype}, weight dtype {model[0].weight.dtype}")
