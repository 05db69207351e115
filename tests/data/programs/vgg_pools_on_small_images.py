# expect: output-size-too-small
# After https://github.com/milesial/Pytorch-UNet/issues/134 and
# https://github.com/Randl/MobileNetV2-pytorch/issues/2 (Output size is too small): a VGG-style
# stack of five poolings written for 224x224 images, trained on 16x16 crops.
import argparse

import torch
import torch.nn as nn


def vgg_block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(inplace=True), nn.MaxPool2d(2))


class MiniVGG(nn.Module):
    def __init__(self, n_classes):
        super().__init__()
        self.features = nn.Sequential(
            vgg_block(3, 32), vgg_block(32, 64), vgg_block(64, 128), vgg_block(128, 128), vgg_block(128, 256)
        )
        self.classifier = nn.Linear(256, n_classes)

    def forward(self, x):
        return self.classifier(torch.flatten(self.features(x), 1))


def train(args):
    model = MiniVGG(args.classes)
    opt = torch.optim.SGD(model.parameters(), lr=0.01)
    x = torch.randn(args.batch_size, 3, args.crop, args.crop)
    y = torch.randint(0, args.classes, (args.batch_size,))
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print("loss", loss.item())


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--crop", type=int, default=16)
    p.add_argument("--classes", type=int, default=10)
    p.add_argument("--batch-size", type=int, default=8)
    train(p.parse_args())
