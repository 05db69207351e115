# expect: checkpoint-corrupted
# 断点续训：上次保存到一半时进程被kill了（磁盘满），last.pt只写了一部分，这次加载报错。
import os
import tempfile

import torch
import torch.nn as nn

ckpt_dir = tempfile.mkdtemp()
model = nn.Sequential(nn.Linear(100, 256), nn.ReLU(), nn.Linear(256, 10))
full = os.path.join(ckpt_dir, "full.pt")
torch.save({"model": model.state_dict(), "epoch": 12}, full)
with open(full, "rb") as f:
    data = f.read()
with open(os.path.join(ckpt_dir, "last.pt"), "wb") as f:
    f.write(data[: len(data) // 3])  # 只写了三分之一

path = os.path.join(ckpt_dir, "last.pt")
print(f"从 {path} 恢复训练, 文件大小 {os.path.getsize(path)} 字节")
state = torch.load(path, map_location="cpu")
model.load_state_dict(state["model"])
print("从第", state["epoch"], "轮继续")
