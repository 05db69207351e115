# expect: numpy-negative-strides
import numpy as np
import torch

img = np.random.rand(32, 32, 3).astype(np.float32)
flipped = img[:, ::-1, :]
t = torch.from_numpy(flipped)
