"""sparse-op-not-implemented: an operation that sparse tensors do not support.

A sparse COO tensor (torch.sparse_coo_tensor, a sparse adjacency matrix, an nn.Embedding with
sparse=True's gradients) dispatches to the SparseCPU / SparseCUDA backends, which implement only
part of PyTorch's operators. Indexing one with a tensor of indices (adjacency[rows]) has no sparse
kernel: "Could not run 'aten::index.Tensor' with arguments from the 'SparseCPU' backend".
`--fixed` selects the rows with index_select, which sparse tensors do support (or densifies a small
tensor with to_dense()).
"""

import warnings

import torch
from _common import fixed_flag

fixed = fixed_flag(__doc__)
warnings.filterwarnings("ignore", message="Sparse invariant checks")

torch.manual_seed(0)
n = 6
edges = torch.tensor([[0, 1, 2, 3, 4, 5], [1, 2, 3, 4, 5, 0]])
adjacency = torch.sparse_coo_tensor(edges, torch.ones(6), (n, n)).coalesce()
rows = torch.tensor([0, 2, 4])

# broken: adjacency[rows] is aten::index.Tensor, which has no SparseCPU kernel;
# index_select is supported for sparse COO tensors
batch = adjacency.index_select(0, rows) if fixed else adjacency[rows]
features = torch.sparse.mm(batch, torch.randn(n, 4))
print(f"neighbour features for rows {rows.tolist()}: {tuple(features.shape)}")
