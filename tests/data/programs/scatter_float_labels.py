# expect: index-dtype
import numpy as np
import torch

# labels column of the CSV was parsed as float
labels = torch.from_numpy(np.array([0.0, 2.0, 1.0, 3.0]))
one_hot = torch.zeros(4, 5)
one_hot.scatter_(1, labels.unsqueeze(1), 1.0)
print(one_hot)
