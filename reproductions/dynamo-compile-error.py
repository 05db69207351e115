"""dynamo-compile-error: torch.compile(fullgraph=True) on a forward whose `if` depends on a tensor.

The model rescales its hidden features only when their largest magnitude exceeds 10:
`if h.abs().max() > 10:`. In eager mode Python evaluates the tensor and takes a branch; TorchDynamo
traces the code into a graph before any value exists, so a branch that depends on data cannot be
captured. Without fullgraph=True dynamo would split the graph there (a "graph break") and run the
`if` in Python; with fullgraph=True (asked for to export the model, use CUDA graphs, or make sure
the whole forward is compiled) it raises torch._dynamo.exc.Unsupported: "Data-dependent branching".

backend="eager" keeps the run fast: dynamo fails while tracing, before any backend (inductor and
its C++/Triton compilers) is reached, so the default backend prints the same error. `--fixed`
makes the forward branchless with torch.where, which traces into a single graph.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)


class Scorer(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(16, 32)
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        h = torch.relu(self.encoder(x))
        peak = h.abs().max()
        if fixed:
            h = torch.where(peak > 10, h / peak * 10, h)  # both branches as tensor ops
        # The mistake: a Python `if` on a tensor value, which dynamo cannot trace.
        elif peak > 10:
            h = h / peak * 10
        return self.head(h)


model = torch.compile(Scorer(), fullgraph=True, backend="eager")
scores = model(torch.randn(8, 16))
print("compiled forward ran as one graph; scores:", tuple(scores.shape))
