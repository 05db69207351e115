"""load-cuda-on-cpu: a checkpoint saved from a GPU, loaded with torch.load on a machine without one.

torch.save records, for every tensor storage, the device it lived on ("cuda:0" for a model trained
on the first GPU), and torch.load puts each storage back on that device unless map_location says
otherwise. The model was trained and saved on a GPU server; the inference script on a CPU-only
laptop calls `torch.load("classifier.pt")` without map_location, so torch tries to restore the
weights on cuda:0 and stops: "RuntimeError: Attempting to deserialize object on a CUDA device but
torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use
torch.load with map_location=torch.device('cpu') to map your storages to the CPU."

This machine has no GPU to save from, so the "GPU server" step registers a storage tagger with
torch.serialization.register_package (torch's own hook for naming a storage's device at save
time) that names the device "cuda:0": the file then holds exactly the location tag a GPU-saved
checkpoint holds. On a machine with N GPUs, the tag is "cuda:N" (a checkpoint from GPU N of a
bigger server), and torch raises the sibling message "Attempting to deserialize object on CUDA
device N but torch.cuda.device_count() is N".

`--fixed` loads with map_location="cpu" (any device string or torch.device works), and predicts.
"""

import io

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))

# --- on the GPU server: torch.save(model.state_dict(), "classifier.pt") with the model on a GPU
saved_on = f"cuda:{torch.cuda.device_count()}"  # cuda:0 here; a GPU this machine lacks elsewhere
on_gpu_server = True


def gpu_server_tag(storage):
    return saved_on if on_gpu_server and storage.device.type == "cpu" else None


def no_restore(storage, location):
    return None  # leave loading to torch's own CUDA deserializer


torch.serialization.register_package(0, gpu_server_tag, no_restore)
checkpoint = io.BytesIO()  # stands in for "classifier.pt"
torch.save(model.state_dict(), checkpoint)
on_gpu_server = False

# --- on the CPU-only laptop: predict.py
checkpoint.seek(0)
state_dict = torch.load(checkpoint, map_location="cpu") if fixed else torch.load(checkpoint)
net = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))
net.load_state_dict(state_dict)
net.eval()
with torch.no_grad():
    predictions = net(torch.randn(4, 20)).argmax(1).tolist()
print(f"weights on {next(net.parameters()).device}; predictions: {predictions}")
