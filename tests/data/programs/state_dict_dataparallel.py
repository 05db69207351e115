# expect: state-dict-mismatch
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
ckpt = {"module." + k: v for k, v in model.state_dict().items()}  # saved from DataParallel
fresh = nn.Sequential(nn.Linear(4, 4), nn.ReLU(), nn.Linear(4, 2))
fresh.load_state_dict(ckpt)
