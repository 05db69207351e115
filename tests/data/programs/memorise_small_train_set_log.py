# expect: overfitting
# After overfitting questions ("train acc reaches 100% but val acc stays at ~50%, val loss goes
# up"): a wide MLP on 60 training samples, evaluated on held-out data each epoch.
import torch
import torch.nn as nn

torch.manual_seed(0)
def make(n):
    x = torch.randn(n, 30)
    y = ((x[:, 0] + 0.8 * torch.randn(n)) > 0).long()
    return x, y

x_tr, y_tr = make(60)
x_va, y_va = make(500)
model = nn.Sequential(nn.Linear(30, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(1, 31):
    model.train()
    out = model(x_tr)
    loss = nn.functional.cross_entropy(out, y_tr)
    opt.zero_grad()
    loss.backward()
    opt.step()
    model.eval()
    with torch.no_grad():
        vout = model(x_va)
        vloss = nn.functional.cross_entropy(vout, y_va)
    tacc = (out.argmax(1) == y_tr).float().mean()
    vacc = (vout.argmax(1) == y_va).float().mean()
    if epoch % 3 == 0:
        print(f"epoch {epoch}: train_loss={loss.item():.4f} train_acc={tacc:.3f} val_loss={vloss.item():.4f} val_acc={vacc:.3f}")
