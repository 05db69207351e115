# expect: numpy-object-dtype
import numpy as np
import torch

# rows parsed from a CSV where one column was read as strings
rows = [["0.5", 1.2, 3], ["0.7", 0.3, 1], ["", 2.2, 0]]
features = np.array([r[:2] for r in rows], dtype=object)
labels = np.array([r[2] for r in rows])
x = torch.from_numpy(features)
y = torch.from_numpy(labels)
print(x, y)
