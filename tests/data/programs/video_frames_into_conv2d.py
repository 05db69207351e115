# expect: conv-input-dims
# Action recognition: clips are (B, T, C, H, W) and go straight into a Conv2d backbone, where the
# frames should have been folded into the batch first.
import torch
import torch.nn as nn

backbone = nn.Sequential(
    nn.Conv2d(3, 16, 3, stride=2, padding=1),
    nn.BatchNorm2d(16),
    nn.ReLU(),
    nn.AdaptiveAvgPool2d(1),
)
classifier = nn.Linear(16, 5)

clips = torch.randn(2, 8, 3, 32, 32)  # batch of 2 clips, 8 frames each
labels = torch.tensor([1, 3])

feats = backbone(clips)
logits = classifier(feats.flatten(1))
loss = nn.CrossEntropyLoss()(logits, labels)
print(loss)
