# expect: overfitting
import torch
import torch.nn as nn

torch.manual_seed(0)
x_train, y_train = torch.randn(40, 20), torch.randint(0, 2, (40,))
x_val, y_val = torch.randn(200, 20), torch.randint(0, 2, (200,))
model = nn.Sequential(
    nn.Linear(20, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 2)
)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
crit = nn.CrossEntropyLoss()
for epoch in range(1, 31):
    model.train()
    opt.zero_grad()
    loss = crit(model(x_train), y_train)
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        val_loss = crit(model(x_val), y_val)
    if epoch % 3 == 0:
        print(
            f"Epoch {epoch:02d} | train_loss: {loss.item():.4f} | val_loss: {val_loss.item():.4f}"
        )
