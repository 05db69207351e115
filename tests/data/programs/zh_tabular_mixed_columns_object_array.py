# expect: numpy-object-dtype
# 表格数据从 csv 读进来，有一列是城市名（字符串），整行转成 numpy 数组后是 object 类型，
# 直接 torch.tensor 报错。
import csv
import io

import numpy as np
import torch

原始csv = "age,income,city,label\n34,5200.5,北京,1\n45,8100.0,上海,0\n23,3100.2,成都,1\n51,9900.9,深圳,0\n"
行 = list(csv.DictReader(io.StringIO(原始csv)))
特征 = np.array([[float(r["age"]), float(r["income"]), r["city"]] for r in 行], dtype=object)
标签 = np.array([int(r["label"]) for r in 行])
print("特征形状:", 特征.shape, "dtype:", 特征.dtype)
x = torch.tensor(特征)
print(x.shape)
