# expect: batchnorm-single-sample
import torch
import torch.nn as nn


class TabularNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(12, 64), nn.BatchNorm1d(64), nn.ReLU(), nn.Linear(64, 1))

    def forward(self, x):
        return self.net(x)


model = TabularNet()
# ... training ...
new_customer = torch.randn(12)
with torch.no_grad():
    prob = torch.sigmoid(model(new_customer.unsqueeze(0)))
print(f"churn probability: {prob.item():.2f}")
