# expect: tensor-format-string
# A multi-task model (age regression + gender + emotion): the per-task losses are kept in one
# tensor and the dict-style log formats it like a float.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(128, 32)
age = torch.rand(128, 1) * 80
gender = torch.randint(0, 2, (128,))
emotion = torch.randint(0, 7, (128,))
trunk = nn.Sequential(nn.Linear(32, 64), nn.ReLU())
heads = nn.ModuleDict(
    {"age": nn.Linear(64, 1), "gender": nn.Linear(64, 2), "emotion": nn.Linear(64, 7)}
)
params = list(trunk.parameters()) + list(heads.parameters())
opt = torch.optim.Adam(params, lr=1e-3)
for step in range(1, 4):
    h = trunk(x)
    losses = torch.stack(
        [
            nn.functional.l1_loss(heads["age"](h), age) / 10,
            nn.functional.cross_entropy(heads["gender"](h), gender),
            nn.functional.cross_entropy(heads["emotion"](h), emotion),
        ]
    )
    loss = losses.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    log = {"step": step, "loss": loss.item(), "task_losses": losses.detach()}
    print({k: (f"{v:.4f}" if not isinstance(v, int) else v) for k, v in log.items()})
