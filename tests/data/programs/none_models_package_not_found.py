# expect: none
# The training script imports the project's own package (models/) and is started from another
# directory: ModuleNotFoundError for the user's module, not for torch.
import torch  # noqa: F401

from models.resnet import ResNet18  # noqa: E402

net = ResNet18(num_classes=10)
print(net)
