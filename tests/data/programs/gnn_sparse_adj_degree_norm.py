# expect: sparse-op-not-implemented
# A GCN written by hand with a sparse adjacency (to save memory on a big graph); the symmetric
# normalisation indexes the sparse matrix like a dense one.
import torch
import torch.nn as nn

torch.manual_seed(0)
n = 100
src = torch.randint(0, n, (400,))
dst = torch.randint(0, n, (400,))
adj = torch.sparse_coo_tensor(torch.stack([src, dst]), torch.ones(400), (n, n)).coalesce()
x = torch.randn(n, 16)
deg = torch.sparse.sum(adj, dim=1).to_dense().clamp(min=1)
d_inv_sqrt = deg.pow(-0.5)
row, col = adj.indices()
adj_norm = torch.sparse_coo_tensor(
    adj.indices(), adj.values() * d_inv_sqrt[row] * d_inv_sqrt[col], (n, n)
)
train_nodes = torch.arange(0, 60)
lin = nn.Linear(16, 3)
h = torch.sparse.mm(adj_norm, lin(x))
sub = adj_norm[train_nodes]
print(sub.shape)
