# expect: torch-private-api-removed
import torch
from torch._six import inf


def clip_grad_norm(parameters, max_norm, norm_type=2):
    parameters = [p for p in parameters if p.grad is not None]
    if norm_type == inf:
        return max(p.grad.abs().max() for p in parameters)
    return torch.norm(torch.stack([p.grad.norm(norm_type) for p in parameters]), norm_type)


print(clip_grad_norm([torch.nn.Parameter(torch.ones(2))], 1.0))
