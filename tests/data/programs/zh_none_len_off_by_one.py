# expect: none
# 自定义 Dataset 的 __len__ 多算了一个（把表头行也算进去了），
# 最后一个 index 越界：普通的 Python IndexError。
import torch
from torch.utils.data import DataLoader, Dataset

文件内容 = "x1,x2,y\n0.1,0.2,0\n0.3,0.1,1\n0.9,0.8,1\n0.5,0.5,0\n0.2,0.7,1"


class 表格数据集(Dataset):
    def __init__(self, 文本):
        self.行 = 文本.strip().split("\n")
        self.数据 = [list(map(float, r.split(","))) for r in self.行[1:]]

    def __len__(self):
        return len(self.行)  # 应该是 len(self.数据)

    def __getitem__(self, i):
        r = self.数据[i]
        return torch.tensor(r[:2]), int(r[2])


for 特征, 标签 in DataLoader(表格数据集(文件内容), batch_size=2):
    print(特征.shape, 标签)
