"""address-in-use: a second training job reuses the MASTER_PORT of one that is still running.

Rank 0 of every torch.distributed job opens a TCPStore server on MASTER_PORT (or on the port of
`init_method="tcp://host:port"`), and the other ranks connect to it there. Job A (here its store,
created in this process) still holds the port, e.g. an earlier run that is still going or a zombie
from a crashed one, and job B is started with the same hard-coded port. Its
init_process_group cannot listen there: "DistNetworkError: The server socket has failed to listen
on any local network address. port: N, ..., name: EADDRINUSE, message: address already in use".

`--fixed` lets job B ask the operating system for a free port (bind to port 0, the idea behind
`torchrun --rdzv-endpoint localhost:0` / `--standalone`) and trains one step.
"""

import socket

import torch
import torch.distributed as dist
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.set_num_threads(1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


MASTER_PORT = free_port()  # stands in for the hard-coded 29500 both jobs use

# job A: started earlier and still running; rank 0's store keeps listening on MASTER_PORT
job_a_store = dist.TCPStore("127.0.0.1", MASTER_PORT, world_size=1, is_master=True)

# job B: the same script, launched again with the same port
port = free_port() if fixed else MASTER_PORT
dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{port}", rank=0, world_size=1)
model = nn.parallel.DistributedDataParallel(nn.Linear(8, 2))
model(torch.randn(4, 8)).sum().backward()
print(f"job B trained one step with its store on port {port}; job A keeps {MASTER_PORT}")
dist.destroy_process_group()
