# expect: numpy-cuda-tensor
# 想把LoRA之前的基座权重存成npy做分析，但模型是在meta设备上初始化的（省内存的写法），
# 直接 .numpy() 报错。
import numpy as np
import torch
import torch.nn as nn

with torch.device("meta"):
    基座 = nn.Linear(128, 128)
print("权重设备:", 基座.weight.device)
w = 基座.weight.detach().numpy()
np.save("base_weight.npy", w)
print("保存完成", w.shape)
