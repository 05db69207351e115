# expect: removed-api
# PCA whitening copied from an old repository that still calls torch.symeig (removed in favour of
# torch.linalg.eigh).
import torch


def pca_whiten(x, k):
    x = x - x.mean(0)
    cov = x.t() @ x / (x.shape[0] - 1)
    eigvals, eigvecs = torch.symeig(cov, eigenvectors=True)
    top = eigvecs[:, -k:]
    return (x @ top) / eigvals[-k:].sqrt()


features = torch.randn(500, 64)
print(pca_whiten(features, 16).shape)
