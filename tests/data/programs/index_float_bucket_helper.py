# expect: index-dtype
# After https://github.com/edebrouwer/gru_ode_bayes/issues/7 (tensors used as indices must be
# long, byte or bool tensors): bucket ids computed with float arithmetic used to index a table.
import torch
import torch.nn as nn


def bucketize_age(age, n_buckets=10, max_age=100.0):
    # 0..n_buckets-1, but floor() keeps the float dtype
    return torch.floor(age / max_age * (n_buckets - 1))


class AgeModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.bucket_weight = nn.Parameter(torch.randn(10, 4))
        self.head = nn.Linear(4, 1)

    def forward(self, age):
        idx = bucketize_age(age)
        return self.head(self.bucket_weight[idx])


model = AgeModel()
ages = torch.tensor([23.0, 45.0, 67.0, 12.0])
print(model(ages))
