# expect: result-type-cast
# A running accuracy kept in an integer tensor: adding the float batch accuracy in place cannot
# be stored back into int64.
import torch
import torch.nn as nn

model = nn.Linear(20, 4)
total_acc = torch.zeros(1, dtype=torch.long)
with torch.no_grad():
    for _ in range(5):
        x = torch.randn(32, 20)
        y = torch.randint(0, 4, (32,))
        pred = model(x).argmax(dim=1)
        total_acc += (pred == y).sum() / len(y)
print("mean acc", (total_acc / 5).item())
