"""batch-collapsed: global average pooling over dims (0, 2, 3) averages the batch away too.

A small CNN predicts each image's brightness. Its pooling was written `h.mean(dim=(0, 2, 3),
keepdim=True)` ("average over everything but the channels"), but dim 0 is the batch: the model
returns one prediction of shape (1, 1) for a batch of 16. MSELoss broadcasts it against the (16, 1)
targets (torch only warns), so the model learns to predict the batch's mean brightness for every
image and the loss stays at the targets' variance. `diagnoser.preflight` (when installed) reports
the output that lost the batch.

`--fixed` pools over the spatial dimensions only, `h.mean(dim=(2, 3))`: one prediction per image,
and the loss falls far below the variance.
"""

import torch
from _common import fixed_flag
from torch import nn


class Brightness(nn.Module):
    def __init__(self, fixed: bool) -> None:
        super().__init__()
        self.fixed = fixed
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Linear(8, 1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = self.features(x)
        if self.fixed:
            h = h.mean(dim=(2, 3))
        else:
            h = torch.flatten(h.mean(dim=(0, 2, 3), keepdim=True), 1)  # the mistake: dim 0
        return self.head(h)


if __name__ == "__main__":
    fixed = fixed_flag(__doc__)
    torch.manual_seed(0)
    images = torch.rand(256, 1, 8, 8) * torch.rand(256, 1, 1, 1)  # each image its own brightness
    targets = images.mean(dim=(1, 2, 3)).unsqueeze(1)  # (256, 1)
    loader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(images, targets), batch_size=16, shuffle=True
    )
    model = Brightness(fixed)
    try:  # the check that names the problem; the harm below shows without it
        from diagnoser import preflight
    except ImportError:
        preflight = None
    if preflight:
        print(preflight(model, loader, nn.MSELoss()).to_text("en"))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(20):
        for x, y in loader:
            loss = nn.functional.mse_loss(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    with torch.no_grad():
        final = sum(nn.functional.mse_loss(model(x), y).item() for x, y in loader) / len(loader)
    print(f"variance of the targets: {targets.var().item():.5f}, final training loss: {final:.5f}")
