"""export-constraint-violation: torch.export with a dynamic dimension that the model's code fixes.

dynamic_shapes={"x": {0: Dim("batch")}} promises that the exported program works for any batch
size. While tracing, torch.export records every condition the code puts on that size; a
hard-coded batch size (x.view(BATCH_SIZE, -1) in a flatten, `if x.shape[0] == 4`, a mask built
for one length) pins it to the example's value, and export refuses: "Constraints violated
(batch)! ... You marked batch as dynamic but your code specialized it to be a constant (4)"
(older releases: "Not all values of batch = L['x'].size()[0] in the specified range satisfy the
generated guard"). The script exports a small CNN whose flatten hard-codes the batch size.
`--fixed` flattens with x.flatten(1), which keeps the batch dimension symbolic.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.export import Dim, export

fixed = fixed_flag(__doc__)
BATCH_SIZE = 4


class Classifier(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(4)
        self.head = nn.Linear(8 * 4 * 4, 10)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv(x)))
        # broken: the batch size written into the model; fixed: keep whatever batch comes in
        x = x.flatten(1) if fixed else x.view(BATCH_SIZE, -1)
        return self.head(x)


torch.manual_seed(0)
example = (torch.randn(BATCH_SIZE, 3, 32, 32),)
batch = Dim("batch", min=1, max=256)
program = export(Classifier().eval(), example, dynamic_shapes={"x": {0: batch}})
for size in (1, 7):
    out = program.module()(torch.randn(size, 3, 32, 32))
    print(f"exported program, batch {size}: {tuple(out.shape)}")
