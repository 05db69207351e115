# summary: a convolutional autoencoder (Conv2d / ConvTranspose2d, sigmoid output) trained with MSELoss and Adam on images in [0, 1], reconstruction checked in eval mode
import torch
from torch import nn

import diagnoser


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Conv2d(1, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
        )
        self.decoder = nn.Sequential(
            nn.ConvTranspose2d(32, 16, 3, stride=2, padding=1, output_padding=1), nn.ReLU(),
            nn.ConvTranspose2d(16, 1, 3, stride=2, padding=1, output_padding=1), nn.Sigmoid(),
        )

    def forward(self, x):
        return self.decoder(self.encoder(x))


torch.manual_seed(0)
images = torch.rand(48, 1, 28, 28)
model = AutoEncoder()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
batches = [(images[i : i + 8], images[i : i + 8]) for i in range(0, 40, 8)]
print(diagnoser.preflight(model, batches, nn.MSELoss(), optimizer))
with diagnoser.watch(model) as w:
    for epoch in range(2):
        model.train()
        for img, _ in batches:
            recon = model(img)
            loss = nn.functional.mse_loss(recon, img)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            w.step(loss)
        model.eval()
        with torch.no_grad():
            model(images[40:])
