# expect: model-is-state-dict
# After https://github.com/alexjfoote/reetoolbox/issues/1 and
# https://github.com/mrdbourke/pytorch-deep-learning/issues/708 ('collections.OrderedDict' object
# has no attribute 'eval'): train saved state_dict(), predict loads it as if it were the model.
import os
import tempfile

import torch
import torch.nn as nn

weights = os.path.join(tempfile.mkdtemp(), "best_model.pth")
net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
torch.save(net.state_dict(), weights)  # end of train.py


def predict(sample):
    model = torch.load(weights)
    model.eval()
    with torch.no_grad():
        return model(sample).argmax(dim=1)


print(predict(torch.tensor([[5.1, 3.5, 1.4, 0.2]])))
