# expect: numpy-requires-grad
import numpy as np
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(1, 32), nn.Tanh(), nn.Linear(32, 1))
xs = torch.linspace(-3, 3, 100).unsqueeze(1)
preds = model(xs)
# plt.plot(xs, preds) -- matplotlib calls np.asarray on the tensor
arr = np.asarray(preds)
print(arr[:3])
