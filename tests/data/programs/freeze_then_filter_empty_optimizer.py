# expect: optimizer-empty-params
# After https://github.com/lxztju/pytorch_classification/issues/26 and
# https://github.com/YanaiEliyahu/AdasOptimizer/issues/2 (optimizer got an empty parameter list
# with filter(lambda p: p.requires_grad, ...)): the new head is frozen along with the backbone.
import torch
import torch.nn as nn


class Backbone(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 16, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(16, 1000)

    def forward(self, x):
        return self.fc(self.features(x))


model = Backbone()
model.fc = nn.Linear(16, 5)  # new head for our 5 classes

# freeze the pretrained part
for param in model.parameters():
    param.requires_grad = False

optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=1e-3)
print(optimizer)
