# summary: tabular regression: standardised features, an MLP with MSELoss, SGD with momentum and ReduceLROnPlateau on the validation loss each epoch
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset, random_split

import diagnoser

torch.manual_seed(0)
features = torch.randn(200, 6) * torch.tensor([1.0, 10.0, 0.1, 5.0, 2.0, 1.0]) + 3.0
target = (features[:, :3].sum(1, keepdim=True) + 0.1 * torch.randn(200, 1))
features = (features - features.mean(0)) / features.std(0)
target = (target - target.mean()) / target.std()
train_set, val_set = random_split(TensorDataset(features, target), [160, 40], generator=torch.Generator().manual_seed(0))
train = DataLoader(train_set, batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(6, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 1))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, factor=0.5, patience=0)
print(diagnoser.preflight(model, train, nn.MSELoss(), optimizer))
with diagnoser.watch(model) as w:
    for epoch in range(3):
        model.train()
        for x, y in train:
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(x), y)
            loss.backward()
            optimizer.step()
            w.step(loss)
        model.eval()
        with torch.no_grad():
            x, y = val_set[:]
            scheduler.step(nn.functional.mse_loss(model(x), y))
