# expect: nan-loss
# 用 logging 打日志的回归脚本：目标没有归一化（房价几十万），学习率又偏大，
# 几步后 loss 变成 inf/nan。
import logging

import torch
import torch.nn as nn

logging.basicConfig(format="%(asctime)s [%(levelname)s] %(message)s", level=logging.INFO)
logger = logging.getLogger("train")

torch.manual_seed(1)
面积 = torch.rand(512, 1) * 200 + 30
房价 = 面积 * 8000 + torch.randn(512, 1) * 1e4
模型 = nn.Linear(1, 1)
优化器 = torch.optim.SGD(模型.parameters(), lr=1e-3)
for step in range(1, 41):
    损失 = nn.functional.mse_loss(模型(面积), 房价)
    优化器.zero_grad()
    损失.backward()
    优化器.step()
    if step % 4 == 0:
        logger.info("step %d/40 loss=%.4f lr=%.0e", step, 损失.item(), 1e-3)
