# expect: address-in-use
import os
import socket

import torch.distributed as dist

# a TensorBoard / notebook / earlier run already listens on the port
busy = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
busy.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
busy.bind(("127.0.0.1", 0))
busy.listen(1)
port = busy.getsockname()[1]

os.environ["MASTER_ADDR"] = "127.0.0.1"
os.environ["MASTER_PORT"] = str(port)
dist.init_process_group("gloo", rank=0, world_size=1)
print("initialised")
