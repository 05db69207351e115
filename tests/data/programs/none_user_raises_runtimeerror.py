# expect: none
# The script's own guard raises a RuntimeError with its own words (the preprocessing step was not
# run): the message is the user's, not PyTorch's, and no entry explains it.
import os
import tempfile

import torch

DATA_DIR = os.path.join(tempfile.mkdtemp(), "processed")


def load_split(name):
    path = os.path.join(DATA_DIR, f"{name}.pt")
    if not os.path.exists(path):
        raise RuntimeError(f"{path} not found: run `python prepare_data.py --out {DATA_DIR}` first")
    return torch.load(path)


train_x, train_y = load_split("train")
print(train_x.shape)
