# expect: shape-matmul
import warnings

import torch
import torch.nn as nn

warnings.warn("The default value of the antialias parameter will change", UserWarning)
encoder = nn.Sequential(nn.Linear(128, 64), nn.ReLU())
decoder = nn.Linear(32, 128)
z = encoder(torch.randn(4, 128))
recon = decoder(z)
