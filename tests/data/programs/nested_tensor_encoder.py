# expect: nested-tensor-unsupported-op
import torch

sentences = [torch.randn(5, 32), torch.randn(9, 32), torch.randn(3, 32)]
batch = torch.nested.nested_tensor(sentences)
proj = torch.nn.Linear(32, 16)
out = proj(batch)
print(out.shape)
pooled = out.view(3, -1, 16).mean(1)
print(pooled)
