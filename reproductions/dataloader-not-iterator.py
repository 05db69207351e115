"""dataloader-not-iterator: `next(loader)` called on the DataLoader itself to peek at one batch.

A DataLoader is an iterable, not an iterator: `for batch in loader` works because the `for`
statement calls `iter(loader)` first, which creates a fresh iterator (a
`_SingleProcessDataLoaderIter` here) for the epoch. Calling `next(train_loader)` skips that step,
so Python itself refuses: "TypeError: 'DataLoader' object is not an iterator". (The old
`iter(loader).next()` spelling fails the same way since torch 1.13: "... object has no attribute
'next'".)

`--fixed` takes one batch with `next(iter(train_loader))`, and keeps one iterator alive when it
steps through batches by hand, creating a new one when the epoch ends.
"""

import torch
from _common import fixed_flag
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

images = torch.randn(100, 1, 28, 28)
labels = torch.randint(0, 10, (100,))
train_loader = DataLoader(TensorDataset(images, labels), batch_size=32, shuffle=True)

# Look at one batch before training, to check shapes.
if fixed:
    x, y = next(iter(train_loader))
else:
    x, y = next(train_loader)  # the mistake: a DataLoader is iterable, not an iterator
print(f"one batch: images {tuple(x.shape)}, labels {tuple(y.shape)}")

# Stepping by hand (e.g. a fixed number of iterations): keep one iterator and renew it per epoch.
batches = iter(train_loader)
for step in range(6):
    try:
        x, y = next(batches)
    except StopIteration:  # the epoch is over: start a new one
        batches = iter(train_loader)
        x, y = next(batches)
    print(f"step {step}: batch of {len(y)}")
