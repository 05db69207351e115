# expect: none
# 训练结束后把指标写进 json，指标是用 numpy 算的 np.float32，json 不认识这个类型。
# 这是 json/numpy 的问题，和 PyTorch 无关。
import json
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(4, 1)
x, y = torch.randn(100, 4), torch.randn(100, 1)
with torch.no_grad():
    pred = model(x).numpy()
指标 = {
    "mae": np.abs(pred - y.numpy()).mean(),
    "rmse": np.sqrt(((pred - y.numpy()) ** 2).mean()),
    "epoch": 20,
}
print("验证指标:", 指标)
with open(os.path.join(tempfile.mkdtemp(), "metrics.json"), "w") as f:
    json.dump(指标, f, ensure_ascii=False, indent=2)
print("已保存")
