# expect: none
# The validation split came out empty (int(0.1 * 9) == 0) and the average divides by its length:
# ZeroDivisionError, a bug of the script's arithmetic.
import torch
import torch.nn as nn

data = [(torch.randn(4), torch.randint(0, 2, ()).item()) for _ in range(9)]
n_val = int(0.1 * len(data))
train_set, val_set = data[n_val:], data[:n_val]

model = nn.Linear(4, 2)
model.eval()
correct = 0
with torch.no_grad():
    for x, y in val_set:
        correct += int(model(x).argmax().item() == y)
print(f"train size {len(train_set)}")
print(f"val acc: {correct / len(val_set):.3f}")
