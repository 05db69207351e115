"""backward-hook-inplace-view: a full backward hook on a module whose output is changed in place.

register_full_backward_hook wraps the module's inputs and outputs in BackwardHookFunction, which
returns them as views. An in-place op on such a view (nn.ReLU(inplace=True) right after the hooked
layer, `x += shortcut`, torchvision's DenseNet and ResNet blocks) would overwrite the hook's
backward, so autograd forbids it: "Output 0 of BackwardHookFunctionBackward is a view and is being
modified inplace" (torch 2.13 says BackwardHookFunction). The script collects Grad-CAM-style
gradients of a conv layer that is followed by ReLU(inplace=True).
`--fixed` turns every in-place activation of the model off before registering the hook.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1),
    nn.ReLU(inplace=True),
    nn.Conv2d(8, 8, 3, padding=1),
    nn.ReLU(inplace=True),  # modifies the hooked conv's output in place
    nn.AdaptiveAvgPool2d(1),
    nn.Flatten(),
    nn.Linear(8, 10),
)
target_layer = model[2]

if fixed:
    for module in model.modules():
        if hasattr(module, "inplace"):
            module.inplace = False

grads = {}


def save_grad(module, grad_input, grad_output):
    grads["activation"] = grad_output[0]


target_layer.register_full_backward_hook(save_grad)

image = torch.rand(1, 3, 32, 32)
scores = model(image)
scores[0, scores.argmax()].backward()
print(f"gradient at the target layer: {tuple(grads['activation'].shape)}")
