# expect: conv-input-dims
# （第一次运行后改标：kb 里 "Kernel size can't be greater than actual input size" 归 conv-input-dims，
# output-size-too-small 只管池化的 "Output size is too small"。）
# 表格数据只有 7 个特征，却照搬了时间序列模型：把特征当成长度为 7 的序列喂给 Conv1d(kernel_size=9)。
import torch
import torch.nn as nn

torch.manual_seed(0)
特征 = torch.randn(64, 7)
标签 = torch.randint(0, 2, (64,))
模型 = nn.Sequential(
    nn.Conv1d(1, 16, kernel_size=9),
    nn.ReLU(),
    nn.AdaptiveMaxPool1d(1),
    nn.Flatten(),
    nn.Linear(16, 2),
)
print("输入:", tuple(特征.unsqueeze(1).shape))
loss = nn.functional.cross_entropy(模型(特征.unsqueeze(1)), 标签)
print("loss", loss.item())
