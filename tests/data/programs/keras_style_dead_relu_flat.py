# expect: loss-not-decreasing
# After "loss stuck at 2.3026 / accuracy 0.1" posts: every weight initialised to zero, so the
# ReLU hidden layer never activates and only the output bias learns. The loop prints Keras-style.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(784, 128), nn.ReLU(), nn.Linear(128, 10))
for p in model.parameters():
    nn.init.zeros_(p)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.rand(1024, 784)
y = torch.arange(1024) % 10
for epoch in range(1, 9):
    total, correct = 0.0, 0
    for i in range(0, 1024, 32):
        out = model(x[i:i + 32])
        loss = nn.functional.cross_entropy(out, y[i:i + 32])
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
        correct += (out.argmax(1) == y[i:i + 32]).sum().item()
    print(f"Epoch {epoch}/8")
    print(f"32/32 [==============================] - 0s - loss: {total / 32:.4f} - accuracy: {correct / 1024:.4f}")
