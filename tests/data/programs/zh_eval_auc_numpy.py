# expect: numpy-requires-grad
# 验证时计算 AUC：没有包 torch.no_grad()，把带梯度的预测直接 .numpy() 给 sklearn 风格的函数。
import numpy as np
import torch
import torch.nn as nn


def 计算auc(标签, 分数):
    order = np.argsort(-分数)
    标签 = 标签[order]
    正 = 标签.sum()
    负 = len(标签) - 正
    tp = np.cumsum(标签)
    return float((tp[标签 == 0]).sum() / (正 * 负))


模型 = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 1))
验证特征 = torch.randn(100, 10)
验证标签 = torch.randint(0, 2, (100,)).numpy()

模型.eval()
概率 = torch.sigmoid(模型(验证特征)).squeeze(1)
print("验证集 AUC:", 计算auc(验证标签, 概率.numpy()))
