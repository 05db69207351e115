# expect: target-out-of-bounds
# After "Target 10 is out of bounds" reports, from a script that catches the error and exits with
# sys.exit(f"...: {e}"): only the message, behind the script's own words, reaches the terminal.
import sys

import torch
import torch.nn as nn

NUM_CLASSES = 10
model = nn.Linear(32, NUM_CLASSES)
labels_from_file = [1, 4, 10, 7, 2, 10, 3, 9]  # labels 1..10 in the annotation file


def train():
    x = torch.randn(len(labels_from_file), 32)
    y = torch.tensor(labels_from_file)
    loss = nn.CrossEntropyLoss()(model(x), y)
    loss.backward()


try:
    train()
except (RuntimeError, IndexError) as e:
    sys.exit(f"[train] fatal: {e}")
