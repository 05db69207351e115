# expect: leaf-inplace
# After https://github.com/BaiTheBest/SparseLLM/issues/13 and
# https://github.com/pytorch/examples/pull/779 (a leaf Variable that requires grad is being used
# in an in-place operation): gradient descent written by hand, outside torch.no_grad().
import torch

torch.manual_seed(42)
x = torch.linspace(0, 1, 100).unsqueeze(1)
y = 3 * x + 0.5 + 0.1 * torch.randn_like(x)

w = torch.randn(1, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
lr = 0.1

for epoch in range(100):
    y_hat = x @ w + b
    loss = ((y_hat - y) ** 2).mean()
    loss.backward()
    w -= lr * w.grad
    b -= lr * b.grad
    w.grad.zero_()
    b.grad.zero_()
    if epoch % 10 == 0:
        print(f"epoch {epoch}: loss {loss.item():.4f}")
