# expect: vanishing-gradient
# 20 层 tanh 全连接网络，权重初始化得很小；打印每一层的梯度均值，前面的层几乎为 0。
import torch
import torch.nn as nn

torch.manual_seed(0)
层列表 = []
for _ in range(20):
    线性 = nn.Linear(64, 64)
    nn.init.normal_(线性.weight, std=0.02)
    层列表 += [线性, nn.Tanh()]
模型 = nn.Sequential(*层列表, nn.Linear(64, 1))

x = torch.randn(128, 64)
y = torch.randn(128, 1)
损失 = nn.functional.mse_loss(模型(x), y)
损失.backward()
for 名字, 参数 in 模型.named_parameters():
    if 名字.endswith("weight"):
        print(f"第 {名字.split('.')[0]} 层 {名字}: 梯度均值 {参数.grad.abs().mean().item():.3e}")
