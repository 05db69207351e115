# expect: frozen-layers-trained
# fault-step: 4
# source: https://github.com/iamwangyabin/S-Prompts/pull/2
# summary: continual learning: at each task every parameter but the current task's prompt and classifier is set requires_grad=False, and a new SGD (momentum, weight_decay) is built on all of the network's parameters; the earlier tasks' prompts keep their zeroed .grad, so weight decay keeps shrinking them (the reporter saw prompt_pool[0].mean() fall while learning task 5)
import torch
from torch import nn, optim
from torch.nn import functional as F

import diagnoser


class PromptNet(nn.Module):
    """A shared feature extractor, then one prompt and one classifier per task."""

    def __init__(self, dim: int = 32, prompt_length: int = 4, classes: int = 3, tasks: int = 3) -> None:
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(16, dim), nn.GELU(), nn.Linear(dim, dim))
        self.prompt_pool = nn.ModuleList(nn.Linear(dim, prompt_length, bias=False) for _ in range(tasks))
        self.classifier_pool = nn.ModuleList(nn.Linear(dim, classes) for _ in range(tasks))
        self.numtask = 0

    def forward(self, x: torch.Tensor) -> dict:
        feature = self.backbone(x)
        prompt = self.prompt_pool[self.numtask - 1].weight
        feature = feature + (feature @ prompt.t()).softmax(-1) @ prompt
        return {"logits": self.classifier_pool[self.numtask - 1](feature)}


def learn_task(net: PromptNet, task: int, batches, w, epochs: int = 2) -> None:
    net.numtask += 1
    current = str(net.numtask - 1)
    for name, param in net.named_parameters():  # only this task's prompt and classifier learn
        param.requires_grad_(name.startswith((f"prompt_pool.{current}.", f"classifier_pool.{current}.")))
    optimizer = optim.SGD(net.parameters(), momentum=0.9, lr=0.01, weight_decay=5e-4)  # a new one per task
    for _ in range(epochs):
        net.eval()  # as the repository trains: the frozen backbone's layers in eval mode
        for inputs, targets in batches:
            loss = F.cross_entropy(net(inputs)["logits"], targets)
            optimizer.zero_grad(set_to_none=False)  # torch < 2.0's default when this was reported
            loss.backward()
            optimizer.step()
            w.step(loss)


torch.manual_seed(0)
net = PromptNet()
tasks = [[(torch.randn(8, 16), torch.randint(0, 3, (8,))) for _ in range(2)] for _ in range(3)]
with diagnoser.watch(net) as w:
    for t, batches in enumerate(tasks):  # task 0: steps 0-3, task 1 from step 4
        learn_task(net, t, batches, w)
        prompt = net.prompt_pool[0].weight
        if t == 0:
            learned = prompt.detach().clone()
        print(f"task {t}: prompt_pool[0] mean {prompt.mean().item():.9f}, changed since task 0: {not torch.equal(prompt, learned)}")
