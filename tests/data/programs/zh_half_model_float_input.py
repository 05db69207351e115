# expect: dtype-mismatch
# 为了省内存把模型 .half() 了，推理时输入还是 float32。
import torch
import torch.nn as nn

模型 = nn.Sequential(nn.Linear(128, 256), nn.GELU(), nn.Linear(256, 10))
模型 = 模型.half()  # 半精度，显存减半
模型.eval()

输入 = torch.randn(4, 128)
with torch.no_grad():
    预测 = 模型(输入).argmax(-1)
print("预测结果:", 预测.tolist())
