# expect: checkpoint-not-downloaded
# After https://github.com/ConstantinSeibold/ChestXRayAnatomySegmentation/issues/17 and
# https://github.com/eladrich/pixel2style2pixel/issues/17 (invalid load key, '<'): the "download"
# of the pretrained weights saved Google Drive's HTML quota page under the .pth name.
import os
import tempfile

import torch
import torch.nn as nn

weights_dir = tempfile.mkdtemp()
weights = os.path.join(weights_dir, "resnet_pretrained.pth")


def download(url, dest):
    # what wget/requests wrote when Drive answered with its "quota exceeded" page
    with open(dest, "w") as f:
        f.write("<!DOCTYPE html><html><head><title>Google Drive - Quota exceeded</title></head>"
                "<body>Too many users have viewed or downloaded this file recently.</body></html>")


if not os.path.exists(weights):
    download("https://drive.google.com/uc?id=1AbCdEf", weights)

model = nn.Sequential(nn.Conv2d(3, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 2))
state = torch.load(weights, map_location="cpu", weights_only=False)
model.load_state_dict(state)
print("loaded")
