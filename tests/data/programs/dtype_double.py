# expect: dtype-mismatch
import numpy as np
import torch
import torch.nn as nn

x = torch.from_numpy(np.random.rand(16, 4))  # float64 from numpy
layer = nn.Linear(4, 2)
layer(x)
