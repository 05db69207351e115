"""target-out-of-bounds: class labels numbered 1..10 given to a 10-class classifier.

The labels come from a CSV in which the ten classes are numbered 1 to 10, the way people count.
nn.CrossEntropyLoss wants class indices 0..9 for a model with 10 outputs, so the first batch that
contains a 10 raises "IndexError: Target 10 is out of bounds." (on a GPU the same mistake is a
device-side assert with "Assertion `t >= 0 && t < n_classes` failed"). The run is on the CPU
everywhere, so the message is the same on every machine.
`--fixed` shifts the labels to 0..9 once, when the dataset is built, checks the range before
training, and trains two epochs.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

NUM_CLASSES = 10
# What pd.read_csv("digits.csv") gives: 64 pixel features and a "label" column holding 1..10.
features = torch.randn(512, 64)
labels = torch.randint(1, NUM_CLASSES + 1, (512,))
if fixed:
    labels = labels - 1  # class indices must run from 0 to NUM_CLASSES - 1
    low, high = int(labels.min()), int(labels.max())
    assert low >= 0 and high < NUM_CLASSES, f"labels span {low}..{high}, need 0..{NUM_CLASSES - 1}"

loader = DataLoader(TensorDataset(features, labels), batch_size=64, shuffle=True)
model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, NUM_CLASSES))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for _ in range(2):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)  # IndexError: Target 10 is out of bounds.
        loss.backward()
        optimizer.step()

print(
    f"2 epochs on {NUM_CLASSES} classes, labels {int(labels.min())}..{int(labels.max())}; "
    f"last loss {loss.item():.3f}"
)
