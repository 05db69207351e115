# expect: dtype-mismatch
# Features standardised with numpy (float64) and turned into tensors with torch.from_numpy, which
# keeps float64; the model's weights are float32.
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(42)
X = rng.normal(size=(300, 8)) * 5 + 2
y = (X.sum(axis=1) > 16).astype(np.int64)
X = (X - X.mean(axis=0)) / X.std(axis=0)

X_train = torch.from_numpy(X[:240])
y_train = torch.from_numpy(y[:240])

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
for _ in range(20):
    optimizer.zero_grad()
    loss = nn.CrossEntropyLoss()(model(X_train), y_train)
    loss.backward()
    optimizer.step()
print("final loss", loss.item())
