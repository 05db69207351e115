"""onnx-export-unsupported: torch.onnx.export meets an operator it has no ONNX translation for.

The TorchScript-based exporter (the default before torch 2.9, and still what dynamo=False runs)
translates each aten operator with a "symbolic" function for the requested opset. An operator
without one, or one added only in a later opset, stops the export: "UnsupportedOperatorError:
Exporting the operator 'aten::_upsample_bicubic2d_aa' to ONNX opset version 17 is not supported";
a symbolic that cannot handle the arguments raises SymbolicValueError "Unsupported: ONNX export
of ...". The dynamo exporter (dynamo=True, default since 2.9) says "No ONNX function found for
<OpOverload(op='aten...')>" instead; it needs onnxscript, which this script does not use. The
script exports a resize with F.interpolate(mode="bicubic", antialias=True), which has no ONNX
symbolic at any opset.
`--fixed` resizes with antialias=False (ONNX Resize, cubic), which exports; writing the model
needs the onnx package, so without it --fixed exits 77.
"""

import importlib.util
import io
import warnings

import torch
import torch.nn.functional as F
from _common import fixed_flag, skip
from torch import nn

fixed = fixed_flag(__doc__)
if fixed and importlib.util.find_spec("onnx") is None:
    skip("--fixed needs the onnx package to write the exported model: pip install onnx")


class Thumbnailer(nn.Module):
    def __init__(self, antialias: bool) -> None:
        super().__init__()
        self.antialias = antialias
        self.conv = nn.Conv2d(3, 8, 3, padding=1)

    def forward(self, image):
        small = F.interpolate(image, size=(64, 64), mode="bicubic", antialias=self.antialias)
        return self.conv(small)


torch.manual_seed(0)
model = Thumbnailer(antialias=not fixed).eval()
image = torch.rand(1, 3, 256, 256)
buffer = io.BytesIO()
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)  # dynamo=False is the legacy exporter
    torch.onnx.export(model, (image,), buffer, opset_version=17, dynamo=False)
print(f"exported to ONNX opset 17: {len(buffer.getvalue())} bytes")
