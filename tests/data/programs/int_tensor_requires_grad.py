# expect: none
import torch

# learnable class weights, initialised from the label counts
counts = torch.tensor([120, 30, 50])
class_weights = torch.tensor(counts.max() / counts, requires_grad=True)
print(class_weights)
positions = torch.arange(10, requires_grad=True)
