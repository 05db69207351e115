# expect: none
import torch
import torch.nn as nn

config = {"learning_rate": 3e-4, "batch_size": 32, "epochs": 10, "weight_decay": 0.01}
model = nn.Linear(16, 4)
opt = torch.optim.AdamW(model.parameters(), lr=config["lr"], weight_decay=config["weight_decay"])
