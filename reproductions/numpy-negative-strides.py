"""numpy-negative-strides: a horizontal flip done in numpy, then torch.from_numpy on the view.

`image[:, ::-1]` (and np.flip, np.fliplr, `img[..., ::-1]` for BGR -> RGB) returns a view that
walks the memory backwards, i.e. with a negative stride; torch tensors cannot describe negative
strides, so torch.from_numpy refuses the view. `--fixed` makes a contiguous copy first.
"""

import torch
from _common import fixed_flag, not_installed

fixed = fixed_flag(__doc__)

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

rng = np.random.default_rng(0)

image = rng.random((32, 32, 3), dtype=np.float32)  # H, W, C as image libraries return it
flipped = image[:, ::-1]  # horizontal flip: a view with a negative stride along W
if fixed:
    flipped = np.ascontiguousarray(flipped)  # or flipped.copy()
tensor = torch.from_numpy(flipped).permute(2, 0, 1)  # C, H, W
print("tensor:", tuple(tensor.shape), tensor.dtype)
