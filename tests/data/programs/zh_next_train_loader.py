# expect: dataloader-not-iterator
# 想先取一个batch看看数据长什么样，直接 next(train_loader)。
import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

logging.basicConfig(level=logging.INFO, format="%(asctime)s - %(levelname)s - %(message)s")
logger = logging.getLogger("train")

特征 = torch.randn(256, 10)
标签 = torch.randint(0, 3, (256,))
train_loader = DataLoader(TensorDataset(特征, 标签), batch_size=32, shuffle=True)
logger.info("训练集大小: %d, batch数: %d", len(train_loader.dataset), len(train_loader))
x, y = next(train_loader)
logger.info("一个batch: x=%s y=%s", tuple(x.shape), tuple(y.shape))
