# expect: dropout-active-at-eval
# fault-step: 0
# source: https://github.com/Academic-Hammer/SciTSR/pull/16
# summary: a GNN layer applies F.dropout(x, p) with its default training=True, so dropout stays on at inference despite model.eval()
import torch
import torch.nn.functional as F
from torch import nn

import diagnoser


class Attention(nn.Module):
    def __init__(self, size: int, dropout: float = 0.2) -> None:
        super().__init__()
        self.query = nn.Linear(size, size)
        self.dropout = dropout

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scores = torch.softmax(self.query(x) @ x.transpose(1, 2) / x.size(-1) ** 0.5, dim=-1)
        scores = F.dropout(scores, self.dropout)
        return scores @ x


class TableNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encode = nn.Linear(8, 32)
        self.attention = Attention(32)
        self.classify = nn.Linear(64, 2)

    def forward(self, nodes: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.encode(nodes))
        h = torch.cat([h, self.attention(h)], dim=-1)
        return self.classify(h).mean(dim=1)


torch.manual_seed(0)
model = TableNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
batches = [(torch.randn(4, 12, 8), torch.randint(0, 2, (4,))) for _ in range(4)]
print(diagnoser.preflight(model, batches, nn.CrossEntropyLoss(), optimizer))
with diagnoser.watch(model) as w:
    for nodes, label in batches:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(nodes), label)
        loss.backward()
        optimizer.step()
        w.step(loss)
