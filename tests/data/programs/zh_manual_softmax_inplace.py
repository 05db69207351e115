# expect: inplace-modified
# 手写 softmax：exp 之后原地除以和（/=），再反向传播时报错。
import torch


def 我的softmax(logits):
    e = torch.exp(logits - logits.max(dim=-1, keepdim=True).values)
    e /= e.sum(dim=-1, keepdim=True)
    return e


权重 = torch.randn(16, 5, requires_grad=True)
输入 = torch.randn(8, 16)
概率 = 我的softmax(输入 @ 权重)
标签 = torch.randint(0, 5, (8,))
损失 = -torch.log(概率[torch.arange(8), 标签]).mean()
损失.backward()
print("梯度范数:", 权重.grad.norm().item())
