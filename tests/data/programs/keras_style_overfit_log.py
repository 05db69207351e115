# expect: overfitting
# A wide MLP trained for many epochs on 64 samples with a Keras-style progress line: training
# accuracy reaches 1.0 while validation loss climbs.
import torch
import torch.nn as nn

torch.manual_seed(3)
x_train, y_train = torch.randn(64, 30), torch.randint(0, 2, (64,))
x_val, y_val = torch.randn(200, 30), torch.randint(0, 2, (200,))
model = nn.Sequential(
    nn.Linear(30, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 2)
)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
crit = nn.CrossEntropyLoss()
epochs = 40
for epoch in range(1, epochs + 1):
    model.train()
    out = model(x_train)
    loss = crit(out, y_train)
    opt.zero_grad()
    loss.backward()
    opt.step()
    acc = (out.argmax(1) == y_train).float().mean()
    model.eval()
    with torch.no_grad():
        vout = model(x_val)
        vloss = crit(vout, y_val)
        vacc = (vout.argmax(1) == y_val).float().mean()
    if epoch % 4 == 0:
        print(f"Epoch {epoch}/{epochs}")
        print(
            f"2/2 - 0s - loss: {loss.item():.4f} - accuracy: {acc:.4f} "
            f"- val_loss: {vloss.item():.4f} - val_accuracy: {vacc:.4f}"
        )
