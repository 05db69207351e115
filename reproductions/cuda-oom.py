"""cuda-oom: full-batch training, so one batch's activations need more memory than the GPU has.

The whole training set goes through the model as a single batch. The first Linear layer's output
for that batch alone needs twice the GPU's memory, so the caching allocator raises
torch.OutOfMemoryError ("CUDA out of memory. Tried to allocate ..."). The number of samples is
derived from torch.cuda.get_device_properties(0).total_memory, so it fails the same way on every
card, and the allocation that fails is never made (the inputs take 1/32 of the card).
`--fixed` trains on mini-batches of 256 with gradient accumulation over 4 of them (an effective
batch of 1024) and prints the peak GPU memory it used. Without CUDA both modes exit 77.
"""

import torch
from _common import fixed_flag, skip
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
if not torch.cuda.is_available():
    skip("needs CUDA: this error is raised by the GPU's caching allocator")

torch.manual_seed(0)
device = torch.device("cuda")
IN_FEATURES, HIDDEN, CLASSES = 512, 32768, 10
model = nn.Sequential(nn.Linear(IN_FEATURES, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, CLASSES))
model = model.to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
criterion = nn.CrossEntropyLoss()
total = torch.cuda.get_device_properties(0).total_memory

if not fixed:
    # "Full-batch" training: so many samples that their hidden activations (float32) need twice
    # the GPU's memory.
    n_samples = 2 * total // (HIDDEN * 4)
    x = torch.randn(n_samples, IN_FEATURES, device=device)
    y = torch.randint(0, CLASSES, (n_samples,), device=device)
    loss = criterion(model(x), y)  # raises torch.OutOfMemoryError in the first Linear
    loss.backward()
    optimizer.step()
else:
    dataset = TensorDataset(torch.randn(4096, IN_FEATURES), torch.randint(0, CLASSES, (4096,)))
    loader = DataLoader(dataset, batch_size=256, shuffle=True)
    accum_steps = 4
    optimizer.zero_grad(set_to_none=True)
    for step, (x, y) in enumerate(loader):
        x, y = x.to(device), y.to(device)
        loss = criterion(model(x), y) / accum_steps  # average over the accumulated micro-batches
        loss.backward()  # gradients add up in .grad
        if (step + 1) % accum_steps == 0:
            optimizer.step()
            optimizer.zero_grad(set_to_none=True)
    peak = torch.cuda.max_memory_allocated() / 2**20
    print(
        f"trained {len(loader)} micro-batches of 256, {accum_steps} per optimizer step "
        f"(effective batch {256 * accum_steps}); peak GPU memory {peak:.0f} MiB "
        f"of {total / 2**30:.1f} GiB"
    )
