# expect: numpy-bfloat16
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))
model.eval()
x = torch.randn(8, 16)
with torch.no_grad(), torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    logits = model(x)
preds = logits.softmax(-1).numpy()
print(preds.argmax(1))
