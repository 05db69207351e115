# expect: none
# The CSV's header row read as data: ValueError: could not convert string to float: 'sepal_length'.
# A parsing bug before any tensor exists.
import os
import tempfile

import torch

path = os.path.join(tempfile.mkdtemp(), "iris.csv")
with open(path, "w") as f:
    f.write("sepal_length,sepal_width,petal_length,petal_width,label\n")
    f.write("5.1,3.5,1.4,0.2,0\n6.2,2.9,4.3,1.3,1\n")

rows = []
with open(path) as f:
    for line in f:
        rows.append([float(v) for v in line.strip().split(",")])
data = torch.tensor(rows)
print(data.shape)
