# expect: workers-same-augmentation
# 数据增强的随机数生成器在 Dataset.__init__ 里创建（np.random.default_rng(0)），
# num_workers=2 时两个 worker 拿到的是同一个生成器的拷贝，打印出来的随机裁剪位置一模一样。
import numpy as np
import torch
from torch.utils.data import DataLoader, Dataset, get_worker_info


class 音频片段(Dataset):
    def __init__(self):
        self.rng = np.random.default_rng(0)

    def __len__(self):
        return 8

    def __getitem__(self, i):
        起点 = int(self.rng.integers(0, 16000 - 4000))
        w = get_worker_info()
        return torch.tensor([i, w.id if w else -1, 起点])


if __name__ == "__main__":
    loader = DataLoader(音频片段(), batch_size=2, num_workers=2)
    for batch in loader:
        for i, wid, start in batch.tolist():
            print(f"样本 {i} worker {wid} 随机裁剪起点 {start}")
