# expect: gather-index-shape
# After "Index tensor must have the same number of dimensions as input tensor" reports: the
# probability of the true class picked with gather, the labels left one-dimensional.
import torch
import torch.nn.functional as F

logits = torch.randn(16, 5, requires_grad=True)
labels = torch.randint(0, 5, (16,))
probs = F.softmax(logits, dim=1)
p_true = probs.gather(1, labels)
loss = -(1 - p_true).pow(2).mul(p_true.log()).mean()  # focal-style
loss.backward()
print(loss.item())
