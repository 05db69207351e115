# expect: frozen-layers-trained
# fault-step: 5
# source: https://discuss.pytorch.org/t/why-there-is-still-a-small-change-in-frozen-layer-parameters/153740
# summary: fc1 frozen between training phases with requires_grad=False; SGD momentum and weight decay still move it because its old .grad stays a tensor
from collections.abc import Iterable

import torch
from torch import nn

import diagnoser


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Sequential(nn.Linear(20, 32), nn.ReLU())
        self.fc2 = nn.Linear(32, 5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(self.fc1(x))


def set_freeze_by_layer_names(model: nn.Module, layer_names, freeze: bool = True) -> None:
    if not isinstance(layer_names, Iterable) or isinstance(layer_names, str):
        layer_names = [layer_names]
    for name, child in model.named_children():
        if name not in layer_names:
            continue
        print(f"set freeze for layer {name} as: {freeze}")
        for param in child.parameters():
            param.requires_grad = not freeze


def training(model, optimizer, w, batches) -> None:
    for x, y in batches:
        optimizer.zero_grad(set_to_none=False)
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        w.step(loss)


torch.manual_seed(0)
model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4)
batches = [(torch.randn(16, 20), torch.randint(0, 5, (16,))) for _ in range(5)]
with diagnoser.watch(model) as w:
    training(model, optimizer, w, batches)  # phase 1: everything trains (steps 0-4)
    set_freeze_by_layer_names(model, "fc1", freeze=True)
    before = model.fc1[0].weight[0, :4].clone()
    training(model, optimizer, w, batches)  # phase 2: fc1 should stay fixed (steps 5-9)
    print("before_train", before, "\nafter_train", model.fc1[0].weight[0, :4])
