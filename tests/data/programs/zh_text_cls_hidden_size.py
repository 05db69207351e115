# expect: shape-matmul
# 文本分类：batch 是 HF 风格的 dict，embedding 维度改成了 256，但分类头还写着 hidden_size=128。
import torch
import torch.nn as nn

词表大小 = 5000
嵌入维度 = 256


class 文本分类器(nn.Module):
    def __init__(self, hidden_size=128, num_labels=4):
        super().__init__()
        self.embed = nn.Embedding(词表大小, 嵌入维度)
        self.classifier = nn.Linear(hidden_size, num_labels)

    def forward(self, input_ids, attention_mask):
        h = self.embed(input_ids)  # (B, T, 256)
        mask = attention_mask.unsqueeze(-1).float()
        pooled = (h * mask).sum(1) / mask.sum(1)  # 平均池化
        return self.classifier(pooled)


model = 文本分类器()
batch = {
    "input_ids": torch.randint(0, 词表大小, (16, 40)),
    "attention_mask": torch.ones(16, 40, dtype=torch.long),
    "labels": torch.randint(0, 4, (16,)),
}
logits = model(batch["input_ids"], batch["attention_mask"])
loss = nn.functional.cross_entropy(logits, batch["labels"])
print("loss:", loss.item())
