"""dataparallel-replica-exception: an error inside nn.DataParallel's replicas, re-raised by torch.

nn.DataParallel copies the model to each GPU and runs the copies ("replicas") in threads. An
exception in one of them is caught, and the main thread re-raises it as "<Type>: Caught <Type> in
replica 0 on device 0." followed by "Original Traceback (most recent call last):" and the real
error. The error here is DataParallel's own classic: the model's forward asks
`next(self.parameters())` for its dtype, and replicas hold their weights as plain attributes, not
parameters (since torch 1.5), so `parameters()` is empty and `next` raises StopIteration:
"StopIteration: Caught StopIteration in replica 0 on device 0.".
With two GPUs or more the script uses nn.DataParallel. With one, DataParallel would call the model
directly, so the script does what DataParallel does on each GPU, `replicate` then `parallel_apply`,
which raises the same error. Without CUDA it exits 77 (DataParallel runs replicas only on GPUs).
`--fixed` reads the dtype from a named weight (`self.fc.weight.dtype`), which replicas do have.
"""

import torch
from _common import fixed_flag, skip
from torch import nn
from torch.nn.parallel import parallel_apply, replicate

fixed = fixed_flag(__doc__)
if not torch.cuda.is_available():
    skip("needs CUDA: nn.DataParallel runs its replicas only on GPUs")


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(16, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # the mistake: a replica has no parameters(); it keeps its weights as attributes
        dtype = self.fc.weight.dtype if fixed else next(self.parameters()).dtype
        return self.fc(x.to(dtype))


torch.manual_seed(0)
model = Net().cuda()
x = torch.randn(32, 16, device="cuda")
gpus = torch.cuda.device_count()
if gpus >= 2:
    out = nn.DataParallel(model)(x)
else:  # what DataParallel.forward does on each of its GPUs
    replicas = replicate(model, [0])
    out = parallel_apply(replicas, [(x,)], devices=[0])[0]
print(f"forward on {gpus} GPU(s): output {tuple(out.shape)}")
