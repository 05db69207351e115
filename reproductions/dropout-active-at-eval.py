"""dropout-active-at-eval: `F.dropout(h, 0.5)` in forward(), whose `training` defaults to True.

The model trains well, but its evaluation drops half of the hidden activations even after
`model.eval()`, because functional dropout does not follow the module's mode: evaluating the same
validation set twice gives two different accuracies, both below what the model can do.
`diagnoser.preflight` (when installed) runs two eval-mode forwards of one batch and names the
first module whose outputs differ.

`--fixed` passes `training=self.training`: evaluation is the same every time, and higher.
"""

import torch
import torch.nn.functional as F
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

try:  # the check that names the problem; the harm below shows without it
    from diagnoser import preflight
except ImportError:
    preflight = None

x = torch.randn(1024, 16)
y = (x[:, :4].sum(1) > 0).long()
x_val, y_val = x[768:], y[768:]


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.hidden = nn.Linear(16, 64)
        self.out = nn.Linear(64, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu(self.hidden(x))
        # the mistake: F.dropout's training defaults to True, even in eval mode
        h = F.dropout(h, 0.5, training=self.training) if fixed else F.dropout(h, 0.5)
        return self.out(h)


model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
if preflight:
    print(preflight(model, (x[:64], y[:64]), nn.CrossEntropyLoss(), optimizer).to_text("en"))
for _ in range(100):
    optimizer.zero_grad()
    nn.functional.cross_entropy(model(x[:768]), y[:768]).backward()
    optimizer.step()

model.eval()
with torch.no_grad():
    accuracies = [(model(x_val).argmax(1) == y_val).float().mean().item() for _ in range(2)]
print(
    f"validation accuracy, evaluated twice in eval mode: {accuracies[0]:.3f}, {accuracies[1]:.3f}"
)
