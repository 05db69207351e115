# expect: inference-tensor-backward
# After "Inference tensors cannot be saved for backward" reports: backbone features precomputed
# once under torch.inference_mode() to speed up training a linear probe on top.
import torch
import torch.nn as nn

backbone = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 128)).eval()
images = torch.randn(256, 64)
labels = torch.randint(0, 10, (256,))

with torch.inference_mode():
    features = backbone(images)  # cache, the backbone is frozen anyway

probe = nn.Linear(128, 10)
opt = torch.optim.SGD(probe.parameters(), lr=0.1)
for epoch in range(5):
    for i in range(0, 256, 64):
        loss = nn.functional.cross_entropy(probe(features[i:i + 64]), labels[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")
