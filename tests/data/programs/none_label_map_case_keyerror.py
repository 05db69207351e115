# expect: none
# A plain Python bug in a training script: the label map was built from lower-case class names,
# the annotation file spells one with a capital (KeyError: 'Cat'). No PyTorch entry explains it.
import torch
import torch.nn as nn

class_to_idx = {"cat": 0, "dog": 1, "bird": 2}
annotations = [("img0.png", "dog"), ("img1.png", "cat"), ("img2.png", "Cat"), ("img3.png", "bird")]

model = nn.Linear(12, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(2):
    for name, cls in annotations:
        x = torch.randn(1, 12)
        y = torch.tensor([class_to_idx[cls]])
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "done")
