# expect: sparse-op-not-implemented
import torch
import torch.nn as nn


class GCNLayer(nn.Module):
    def __init__(self, fin, fout):
        super().__init__()
        self.lin = nn.Linear(fin, fout)

    def forward(self, x, adj):
        return torch.relu(torch.sparse.mm(adj, self.lin(x)))


edges = torch.tensor([[0, 1, 1, 2, 3], [1, 0, 2, 1, 0]])
adj = torch.sparse_coo_tensor(edges, torch.ones(5), (4, 4))
adj_batched = adj.view(1, 4, 4)
x = torch.randn(4, 8)
print(GCNLayer(8, 16)(x, adj_batched[0]).shape)
