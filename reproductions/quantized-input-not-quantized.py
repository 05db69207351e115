"""quantized-input-not-quantized: a float tensor fed to a model converted to int8.

Eager-mode post-training quantization (torch.ao.quantization: prepare, calibrate, convert) swaps
Conv2d + ReLU for a quantized ConvReLU2d whose kernel, quantized::conv2d_relu, only takes
quantized tensors (the QuantizedCPU backend). Nothing converts the float input on the way in unless
the model has a QuantStub at the start of forward (and a DeQuantStub at the end), so the first
quantized layer fails: "Could not run 'quantized::conv2d_relu.new' with arguments from the 'CPU'
backend".
`--fixed` wraps the model in QuantStub / DeQuantStub before preparing it, so convert() turns them
into Quantize / DeQuantize and the converted model takes and returns float tensors.
"""

import warnings

import torch
from _common import fixed_flag
from torch import nn
from torch.ao import quantization as tq

fixed = fixed_flag(__doc__)
warnings.filterwarnings("ignore")  # torch.ao.quantization's deprecation warnings
engines = torch.backends.quantized.supported_engines
torch.backends.quantized.engine = "fbgemm" if "fbgemm" in engines else "qnnpack"


class Net(nn.Module):
    def __init__(self, stubs: bool) -> None:
        super().__init__()
        self.quant = tq.QuantStub() if stubs else nn.Identity()
        self.conv = nn.Conv2d(3, 8, 3)
        self.relu = nn.ReLU()
        self.dequant = tq.DeQuantStub() if stubs else nn.Identity()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.dequant(self.relu(self.conv(self.quant(x))))


torch.manual_seed(0)
model = Net(stubs=fixed).eval()
model.qconfig = tq.get_default_qconfig(torch.backends.quantized.engine)
tq.fuse_modules(model, [["conv", "relu"]], inplace=True)
tq.prepare(model, inplace=True)
for _ in range(4):  # calibration: the observers record the activations' ranges
    model(torch.randn(2, 3, 16, 16))
tq.convert(model, inplace=True)

out = model(torch.randn(2, 3, 16, 16))  # broken: a float tensor reaches quantized::conv2d_relu
print(f"int8 model ran on a float input: output {tuple(out.shape)} {out.dtype}")
