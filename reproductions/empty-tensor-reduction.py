"""empty-tensor-reduction: anchor matching calls .max() on an image with no ground-truth boxes.

A detector matches each anchor to its best ground-truth box with `ious.max(dim=0)`. It works on
images with objects, but a background-only image has zero boxes, so the IoU matrix is (0, 6) and
the maximum over dimension 0 is taken over nothing: "max(): Expected reduction dim 0 to have
non-zero size". `--fixed` handles the empty case first: with no boxes, every anchor is background.
"""

import torch
from _common import fixed_flag

fixed = fixed_flag(__doc__)


def box_iou(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """IoU of every box in a (N, 4) with every box in b (M, 4), boxes as (x1, y1, x2, y2)."""
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    lt = torch.max(a[:, None, :2], b[None, :, :2])
    rb = torch.min(a[:, None, 2:], b[None, :, 2:])
    inter = (rb - lt).clamp(min=0).prod(dim=2)
    return inter / (area_a[:, None] + area_b[None, :] - inter)


def match_anchors(gt_boxes: torch.Tensor, anchors: torch.Tensor, threshold: float = 0.5):
    """For each anchor: the index of its ground-truth box, or -1 for background."""
    if fixed and gt_boxes.numel() == 0:
        return torch.full((len(anchors),), -1, dtype=torch.long)
    ious = box_iou(gt_boxes, anchors)  # (num_gt, num_anchors)
    best_iou, best_gt = ious.max(dim=0)  # the best box for each anchor
    return torch.where(best_iou >= threshold, best_gt, -1)


anchors = torch.tensor([[x, y, x + 16.0, y + 16.0] for x in (0, 16, 32) for y in (0, 16)])
images = {
    "street.jpg": torch.tensor([[0.0, 0.0, 15.0, 17.0], [30.0, 14.0, 48.0, 30.0]]),
    "empty_road.jpg": torch.zeros((0, 4)),  # a background-only image: no annotated boxes
}
for name, gt_boxes in images.items():
    print(name, match_anchors(gt_boxes, anchors).tolist())
