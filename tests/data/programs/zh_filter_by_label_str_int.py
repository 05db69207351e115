# expect: empty-dataset
# 只保留标签为 1 和 2 的样本，但从文件读进来的标签是字符串，过滤后一条都不剩，DataLoader 报错。
import torch
from torch.utils.data import DataLoader, Dataset

原始行 = ["0.5,0.2,1", "0.1,0.9,2", "0.3,0.3,0", "0.8,0.1,1"]


class 过滤数据集(Dataset):
    def __init__(self, 行列表, 保留=(1, 2)):
        self.样本 = []
        for 行 in 行列表:
            *特征, 标签 = 行.split(",")
            if 标签 in 保留:  # 标签是 "1" 不是 1
                self.样本.append(([float(v) for v in 特征], 标签))

    def __len__(self):
        return len(self.样本)

    def __getitem__(self, i):
        特征, 标签 = self.样本[i]
        return torch.tensor(特征), int(标签)


loader = DataLoader(过滤数据集(原始行), batch_size=2, shuffle=True)
for x, y in loader:
    print(x, y)
