# expect: none
import torch

# Mahalanobis distance for anomaly scores; one sensor is stuck at 0 in this window
feats = torch.randn(200, 4)
feats[:, 2] = 0.0
centered = feats - feats.mean(0)
cov = centered.T @ centered / (len(feats) - 1)
inv = torch.linalg.inv(cov)
print(inv)
