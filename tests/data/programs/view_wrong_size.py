# expect: view-invalid-shape
import torch

batch = torch.randn(10, 3, 32, 32)
flat = batch.view(10, 3 * 32 * 31)
