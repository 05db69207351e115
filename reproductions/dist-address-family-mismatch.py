"""dist-address-family-mismatch: Gloo ranks that listen on different address families.

Each Gloo rank binds a TCP socket on the address its hostname (or GLOO_SOCKET_IFNAME's interface)
resolves to, publishes it in the store, and connects to the others. When one rank's address is IPv4
and another's IPv6 (a hostname that resolves to ::1 or to an IPv6-only interface on one node, a
VPN or RDMA interface picked first, an interface name that has only a `fe80::` address on another
node), the pair cannot compare them, and Gloo's check fails on the rank that sees both:
"RuntimeError: [enforce fail at .../gloo/transport/tcp/device.cc:285] ss1.ss_family ==
ss2.ss_family. 10 vs 2" (10 is AF_INET6, 2 is AF_INET).
The script starts two CPU processes on this machine, with a file store (no port to collide with),
and gives each rank the address its "host" resolves to: 127.0.0.1 for rank 0, ::1 for rank 1. It
exits 77 where the loopback interface has no IPv6.
`--fixed` uses one address family for every rank (IPv4 here; across nodes: GLOO_SOCKET_IFNAME set
to an interface that has an IPv4 address on every node), and the all-reduce goes through.
"""

import datetime
import socket
import sys
import tempfile
from pathlib import Path

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch.distributed import ProcessGroupGloo


def has_ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def worker(rank: int, store_path: str, addresses: list[str]) -> None:
    store = dist.FileStore(store_path, len(addresses))
    options = ProcessGroupGloo._Options()
    options._timeout = datetime.timedelta(seconds=30)
    # the address this rank's host resolves to, as init_process_group("gloo") would pick it
    options._devices = [ProcessGroupGloo.create_device(hostname=addresses[rank])]
    group = ProcessGroupGloo(store, rank, len(addresses), options)
    t = torch.full((4,), float(rank + 1))
    group.allreduce([t]).wait()
    print(f"rank {rank} ({addresses[rank]}): all-reduce gave {t.tolist()}", flush=True)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    from _common import fixed_flag, skip

    fixed = fixed_flag(__doc__)
    if not has_ipv6_loopback():
        skip("needs IPv6 on the loopback interface (::1) to give one rank an IPv6 address")
    # the mistake: rank 0's host resolves to IPv4, rank 1's to IPv6
    addresses = ["127.0.0.1", "127.0.0.1"] if fixed else ["127.0.0.1", "::1"]
    with tempfile.TemporaryDirectory() as tmp:
        mp.spawn(worker, args=(str(Path(tmp, "store")), addresses), nprocs=len(addresses))
