"""train-eval-mismatch: BatchNorm's running statistics lag far behind the batches it trained on.

The inputs are raw pixel values (0-255) and training is short, as in a first epoch. In train mode
BatchNorm normalises each batch with that batch's own mean and variance; in eval mode it uses its
running averages, which start at mean 0 and variance 1 and move only 10% of the way per step
(momentum=0.1) while the weights keep changing. After a few steps they are far from the real
statistics, so the very same data scores well in train mode and at chance in eval mode: the
"accuracy drops when I call model.eval()" of many posts. Tiny batches, data that differs between
train and eval, and batches of one class (unshuffled data) do the same.

`--fixed` re-estimates the statistics with the final weights before evaluating (reset, then a
pass over the training data in train mode without gradients, averaged with momentum=None): eval
mode then scores what train mode does.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

n = 1024
labels = torch.randint(0, 2, (n,))
images = torch.rand(n, 20) * 255  # raw pixel values, never divided by 255
images[:, :5] += labels[:, None] * 60.0
model = nn.Sequential(nn.Linear(20, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 2))
optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
for _ in range(8):
    batch = torch.randint(0, n, (64,))
    loss = nn.functional.cross_entropy(model(images[batch]), labels[batch])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

with torch.no_grad():
    if fixed:  # recompute BatchNorm's statistics for the weights training ended with
        for module in model.modules():
            if isinstance(module, nn.modules.batchnorm._BatchNorm):
                module.reset_running_stats()
                module.momentum = None  # a plain average over the pass below
        model.train()
        for start in range(0, n, 64):
            model(images[start : start + 64])
    scores = {}
    for mode in ("train", "eval"):
        model.train(mode == "train")
        out = model(images)
        accuracy = (out.argmax(1) == labels).float().mean().item()
        scores[mode] = (accuracy, nn.functional.cross_entropy(out, labels).item())

(train_acc, train_loss), (eval_acc, eval_loss) = scores["train"], scores["eval"]
print(f"same data, train mode: accuracy {train_acc:.3f}, loss {train_loss:.3f}")
print(f"same data, eval mode:  accuracy {eval_acc:.3f}, loss {eval_loss:.3f}")
if eval_acc < train_acc - 0.1:
    print("the accuracy drops when the model is put in eval mode (model.eval())")
