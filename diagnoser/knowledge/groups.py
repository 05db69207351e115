"""The docs sections an entry belongs to, in the order the site and `diagnoser list` show them."""

from __future__ import annotations

GROUPS: dict[str, dict[str, str]] = {
    "shapes": {"en": "Shapes", "zh": "形状"},
    "dtypes-and-devices": {"en": "Dtypes and devices", "zh": "dtype 与设备"},
    "autograd": {"en": "Autograd", "zh": "自动求导（autograd）"},
    "data-loading": {"en": "Data loading", "zh": "数据加载"},
    "cuda-and-memory": {"en": "CUDA and memory", "zh": "CUDA 与显存"},
    "training-behaviour": {"en": "Training behaviour", "zh": "训练表现"},
    "saving-and-loading": {"en": "Saving and loading", "zh": "保存与加载"},
    "distributed": {"en": "Distributed", "zh": "分布式训练"},
    "install-and-environment": {"en": "Install and environment", "zh": "安装与环境"},
    "python-pitfalls": {"en": "Python pitfalls", "zh": "Python 常见陷阱"},
}
