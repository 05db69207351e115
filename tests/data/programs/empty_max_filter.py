# expect: empty-tensor-reduction
import torch

torch.manual_seed(0)
scores = torch.rand(100)
boxes = torch.rand(100, 4)
keep = scores > 0.999  # confidence threshold for the detections
best = scores[keep].argmax()
print(boxes[keep][best])
