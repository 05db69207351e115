# expect: numpy-requires-grad
# After https://github.com/zhuangdizhu/FedGen/issues/1 and
# https://github.com/ClownW/Reinforcement-learning-with-PyTorch/issues/3 (Can't call numpy() on
# Tensor that requires grad): a metric computed from the live outputs inside the training loop.
import numpy as np
import torch
import torch.nn as nn


def f1_score(y_true, y_prob, threshold=0.5):
    y_pred = (y_prob > threshold).astype(int)
    tp = np.sum((y_pred == 1) & (y_true == 1))
    fp = np.sum((y_pred == 1) & (y_true == 0))
    fn = np.sum((y_pred == 0) & (y_true == 1))
    return 2 * tp / max(2 * tp + fp + fn, 1)


model = nn.Sequential(nn.Linear(10, 1), nn.Sigmoid())
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(3):
    x = torch.randn(64, 10)
    y = (x[:, 0] > 0).float().unsqueeze(1)
    probs = model(x)
    loss = nn.functional.binary_cross_entropy(probs, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    f1 = f1_score(y.numpy(), probs.numpy())
    print(f"epoch {epoch} loss {loss.item():.4f} f1 {f1:.3f}")
