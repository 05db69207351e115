# expect: scalar-conversion
import torch
import torch.nn as nn

model = nn.Linear(10, 4)
x = torch.randn(64, 10)
y = torch.randint(0, 4, (64,))
correct = 0
total = 0
for xb, yb in zip(x.split(16), y.split(16)):
    pred = model(xb).argmax(1)
    correct += (pred == yb).item()
    total += len(yb)
print("acc", correct / total)
