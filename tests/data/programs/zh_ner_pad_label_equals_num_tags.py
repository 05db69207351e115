# expect: target-out-of-bounds
# 中文 NER：标签用 len(标签表) 作为 padding 的值，
# 但 CrossEntropyLoss 的 ignore_index 还是默认 -100。
import torch
import torch.nn as nn

标签表 = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
填充标签 = len(标签表)  # 5

句子标签 = [[0, 1, 2, 0], [3, 4, 0, 0, 0, 1], [0, 0]]
最大长度 = max(len(s) for s in 句子标签)
标签 = torch.tensor([s + [填充标签] * (最大长度 - len(s)) for s in 句子标签])

发射分数 = nn.Linear(32, len(标签表))(torch.randn(3, 最大长度, 32))
损失 = nn.CrossEntropyLoss()(发射分数.reshape(-1, len(标签表)), 标签.reshape(-1))
print("损失:", 损失.item())
