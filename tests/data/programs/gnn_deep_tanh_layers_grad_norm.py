# expect: vanishing-gradient
# A GCN written by hand, stacked 16 layers deep with tanh and small init ("deeper is better");
# the printed gradient norms shrink towards the first layers.
import torch
import torch.nn as nn

torch.manual_seed(0)
n = 80
adj = (torch.rand(n, n) < 0.05).float()
adj = ((adj + adj.t() + torch.eye(n)) > 0).float()
adj = adj / adj.sum(1, keepdim=True)
x = torch.randn(n, 16)
y = torch.randint(0, 4, (n,))


class GCN(nn.Module):
    def __init__(self, depth=16):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(16, 16) for _ in range(depth))
        for lin in self.layers:
            nn.init.normal_(lin.weight, std=0.1)
        self.cls = nn.Linear(16, 4)

    def forward(self, a, h):
        for lin in self.layers:
            h = torch.tanh(a @ lin(h))
        return self.cls(h)


model = GCN()
loss = nn.functional.cross_entropy(model(adj, x), y)
loss.backward()
for i, lin in enumerate(model.layers):
    print(f"gcn layer {i:2d}  weight grad norm {lin.weight.grad.norm().item():.3e}")
