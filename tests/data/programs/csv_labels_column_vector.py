# expect: ce-target-dtype
# Labels read from a CSV as a (N, 1) column (df[["label"]].values style) and given to
# CrossEntropyLoss, which wants a 1-D vector of class indices.
import csv
import io

import numpy as np
import torch
import torch.nn as nn

text = "f1,f2,f3,label\n" + "\n".join(
    f"{i * 0.1:.2f},{(i % 7) * 0.3:.2f},{(i % 3) - 1},{i % 3}" for i in range(120)
)
rows = list(csv.DictReader(io.StringIO(text)))
features = np.array([[float(r["f1"]), float(r["f2"]), float(r["f3"])] for r in rows], np.float32)
labels = np.array([[int(r["label"])] for r in rows], np.int64)  # double brackets: (N, 1)

x = torch.tensor(features)
y = torch.tensor(labels)
model = nn.Linear(3, 3)
loss = nn.CrossEntropyLoss()(model(x), y)
loss.backward()
print(loss.item())
