"""nested-tensor-unsupported-op: a nested tensor reaches code that expects a regular tensor.

In eval mode under no_grad, nn.TransformerEncoder takes its "fast path": with a
src_key_padding_mask it packs the batch into a nested tensor (enable_nested_tensor=True, the
default), runs the layers on it and pads the result back at the end. Code that sees the
intermediate values, here a forward hook that records each layer's output shape for feature
extraction, gets a strided NestedTensor, which has no single shape: "Internal error:
NestedTensorImpl doesn't support sizes. Please file an issue." The same happens with
torch.nested.nested_tensor([...]).shape, len(nt), or ops that have no nested kernel.
`--fixed` makes the hook check `output.is_nested` and pad it with to_padded_tensor before looking
at its shape (building the encoder with enable_nested_tensor=False also works, slower).
"""

import warnings

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
warnings.filterwarnings("ignore", message="enable_nested_tensor is True")

torch.manual_seed(0)
layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, batch_first=True)
encoder = nn.TransformerEncoder(layer, num_layers=2).eval()
tokens = torch.randn(3, 5, 16)
padding = torch.tensor([[0, 0, 0, 1, 1], [0, 0, 0, 0, 0], [0, 0, 1, 1, 1]], dtype=torch.bool)

shapes: dict[str, tuple[int, ...]] = {}


def record_shape(name: str):
    def hook(module: nn.Module, inputs: tuple, output: torch.Tensor) -> None:
        if fixed and output.is_nested:  # the fast path hands the layers a nested tensor
            output = output.to_padded_tensor(0.0)
        shapes[name] = tuple(output.shape)  # broken: a nested tensor has no single shape

    return hook


for i, block in enumerate(encoder.layers):
    block.register_forward_hook(record_shape(f"layer{i}"))

with torch.no_grad():  # inference: the nested-tensor fast path is taken
    out = encoder(tokens, src_key_padding_mask=padding)
print(f"encoder output {tuple(out.shape)}, layer outputs {shapes}")
