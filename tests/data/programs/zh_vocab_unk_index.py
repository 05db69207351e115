# expect: embedding-index-out-of-range
# 词表只在训练集上建，测试集的生词映射成 len(词表) 当作 UNK，但 Embedding 只开了 len(词表) 行。
import torch
import torch.nn as nn

训练句子 = ["我 喜欢 深度 学习", "今天 天气 很 好", "深度 学习 很 有趣"]
词表 = {}
for 句 in 训练句子:
    for 词 in 句.split():
        词表.setdefault(词, len(词表))


def 编码(句):
    return [词表.get(词, len(词表)) for 词 in 句.split()]


嵌入层 = nn.Embedding(len(词表), 32)
测试 = torch.tensor([编码("我 喜欢 机器 学习")])
print(嵌入层(测试).shape)
