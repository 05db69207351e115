# expect: numpy-object-dtype
# A table parsed into a numpy array with one column of strings left in it ("yes"/"no" not yet
# encoded): the array is dtype=object and torch.from_numpy refuses it.
import numpy as np
import torch

records = [
    (23, 71.5, "yes"),
    (35, 80.1, "no"),
    (41, 62.0, "yes"),
    (29, 90.3, "no"),
]
table = np.array(records, dtype=object)
features = torch.from_numpy(table[:, :2])
print(features.mean(0))
