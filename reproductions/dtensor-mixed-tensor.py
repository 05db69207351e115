"""dtensor-mixed-tensor: a module given to `distribute_module` and called with plain tensors.

`distribute_module(model, mesh)` with no `partition_fn` turns every parameter into a replicated
DTensor, and with no `input_fn` leaves the inputs alone. The token ids fed to the model are still
ordinary torch.Tensors, so the first operator that sees both, the embedding lookup, refuses to
guess how the plain tensor is laid out over the mesh: "RuntimeError: aten.embedding.default: got
mixed torch.Tensor and DTensor, need to convert all torch.Tensor to DTensor before calling
distributed operators!".

`--fixed` gives `distribute_module` an `input_fn` that wraps each input with
`DTensor.from_local(x, mesh, [Replicate()])` (every rank holds the whole batch) and an
`output_fn` that turns the result back into a local tensor for the loss.

Runs one CPU process (gloo, a device mesh of size 1): the check is the same on any mesh.
"""

import tempfile
from pathlib import Path

import torch
import torch.distributed as dist
from _common import fixed_flag
from torch import nn
from torch.distributed.device_mesh import init_device_mesh
from torch.distributed.tensor import DTensor, Replicate, distribute_module

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)


class TinyLM(nn.Module):
    def __init__(self, vocab: int = 100, dim: int = 32) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.out = nn.Linear(dim, vocab)

    def forward(self, ids: torch.Tensor) -> torch.Tensor:
        return self.out(torch.tanh(self.embed(ids)))


def replicate_inputs(module, inputs, mesh):  # type: ignore[no-untyped-def]
    return tuple(DTensor.from_local(x, mesh, [Replicate()]) for x in inputs)


def to_local(module, output, mesh):  # type: ignore[no-untyped-def]
    return output.to_local()


with tempfile.TemporaryDirectory() as tmp:
    # a file store instead of a TCP port: no port to collide with other jobs on this machine
    dist.init_process_group("gloo", init_method=Path(tmp, "store").as_uri(), rank=0, world_size=1)
    mesh = init_device_mesh("cpu", (dist.get_world_size(),))
    if fixed:
        model = distribute_module(TinyLM(), mesh, input_fn=replicate_inputs, output_fn=to_local)
    else:
        model = distribute_module(TinyLM(), mesh)  # the mistake: parameters DTensor, inputs not
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    ids = torch.randint(0, 100, (8, 16))
    for step in range(3):
        logits = model(ids)
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), ids.flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.3f}")
    dist.destroy_process_group()
print("trained 3 steps with DTensor parameters")
