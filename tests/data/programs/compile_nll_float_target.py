# expect: ce-target-dtype
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(20, 5)

    def forward(self, x, target):
        log_probs = F.log_softmax(self.fc(x), dim=1)
        return F.nll_loss(log_probs, target)


model = torch.compile(Classifier())
x = torch.randn(16, 20)
target = torch.randint(0, 5, (16,)).float() / 1.0  # normalised like the inputs by mistake
print(model(x, target))
