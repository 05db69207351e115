# expect: model-is-state-dict
import torch
import torch.nn as nn
import io

net = nn.Linear(2, 2)
buf = io.BytesIO()
torch.save(net.state_dict(), buf)
buf.seek(0)
model = torch.load(buf)
model.eval()
