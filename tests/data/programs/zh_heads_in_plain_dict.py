# expect: optimizer-empty-params
# 多个任务头放在普通 dict 里，而不是 nn.ModuleDict；模型自身又没有别的层，parameters() 为空。
import torch
import torch.nn as nn


class 多任务头(nn.Module):
    def __init__(self, 任务列表, 维度=64):
        super().__init__()
        self.heads = {名: nn.Linear(维度, 类别数) for 名, 类别数 in 任务列表.items()}

    def forward(self, h):
        return {名: head(h) for 名, head in self.heads.items()}


模型 = 多任务头({"情感": 3, "主题": 10})
优化器 = torch.optim.AdamW(模型.parameters(), lr=1e-4, weight_decay=0.01)
print("优化器建好了")
