# expect: result-type-cast
import numpy as np
import torch

img = torch.from_numpy(np.random.randint(0, 256, (3, 32, 32)))  # uint8 image read as int64
mean = torch.tensor([0.485, 0.456, 0.406]).view(3, 1, 1)
std = torch.tensor([0.229, 0.224, 0.225]).view(3, 1, 1)
img -= mean * 255
img /= std * 255
print(img.mean())
