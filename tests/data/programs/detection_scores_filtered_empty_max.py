# expect: empty-tensor-reduction
# After "max(): Expected reduction dim to be specified for input.numel() == 0" reports: detections
# filtered by a confidence threshold, then the best score taken from what is left.
import torch


def postprocess(scores, boxes, conf_thresh=0.9):
    keep = scores > conf_thresh
    scores, boxes = scores[keep], boxes[keep]
    best = scores.max()
    return boxes[scores == best], best


torch.manual_seed(0)
for img_id in range(3):
    scores = torch.rand(100) * 0.8  # an untrained model is never confident
    boxes = torch.rand(100, 4)
    box, score = postprocess(scores, boxes)
    print(img_id, box, score)
