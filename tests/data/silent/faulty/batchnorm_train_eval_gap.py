# expect: train-eval-mismatch
# fault-step: 48
# source: https://github.com/uci-cbcl/UFold/issues/18
# see also: https://github.com/BCV-Uniandes/DMS/issues/30 https://github.com/pytorch/pytorch/issues/4741
# summary: recordings whose gain and offset vary over orders of magnitude, trained one per batch (batch size 1) through Conv1d + BatchNorm1d over time: in train mode each recording is normalised by its own statistics, in eval mode by running averages that fit none of them, so model.eval() at the end of the first epoch (step 48) scores far worse than train mode on the same recordings
import torch
from torch import nn

import diagnoser

torch.manual_seed(0)
LENGTH = 128


def recording(kind: int) -> torch.Tensor:
    """One sensor recording: background noise with a burst in its first, middle or last third
    (the class), at a gain between 0.01 and 100 and an offset of up to 3 times that gain (each
    device its own)."""
    signal = 0.3 * torch.randn(LENGTH)
    start = kind * LENGTH // 3 + int(torch.randint(0, LENGTH // 3 - 16, ()))
    signal[start : start + 16] += 2 * torch.sin(torch.arange(16) * 1.5)
    gain = 10 ** (torch.rand(()) * 4 - 2)
    offset = (torch.rand(()) * 6 - 3) * gain
    return (gain * signal + offset)[None]  # (channels=1, time)


def dataset(n: int) -> list[tuple[torch.Tensor, torch.Tensor]]:
    return [(recording(k)[None], torch.tensor([k])) for k in torch.randint(0, 3, (n,)).tolist()]


train_set, val_set = dataset(48), dataset(24)
model = nn.Sequential(
    nn.Conv1d(1, 16, 7, padding=3), nn.BatchNorm1d(16), nn.ReLU(),
    nn.Conv1d(16, 16, 7, padding=3), nn.BatchNorm1d(16), nn.ReLU(),
    nn.AdaptiveAvgPool1d(3), nn.Flatten(), nn.Linear(48, 3),
)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)


def evaluate(data: list[tuple[torch.Tensor, torch.Tensor]], train_mode: bool) -> tuple[float, float]:
    model.train(train_mode)
    loss = correct = 0.0
    with torch.no_grad():
        for x, y in data:  # one recording at a time, as in training
            out = model(x)
            loss += nn.functional.cross_entropy(out, y).item() / len(data)
            correct += (out.argmax(1) == y).float().item() / len(data)
    return loss, correct


with diagnoser.watch(model) as w:
    for epoch in range(3):
        model.train()
        for x, y in train_set:  # batch size 1
            loss = nn.functional.cross_entropy(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            w.step(loss)
        val_loss, val_acc = evaluate(val_set, train_mode=False)
        # what the reporters did to find it: the same recordings without model.eval()
        train_mode_loss, train_mode_acc = evaluate(val_set, train_mode=True)
        print(
            f"epoch {epoch}: eval mode loss {val_loss:.3f} accuracy {val_acc:.2f} | "
            f"train mode loss {train_mode_loss:.3f} accuracy {train_mode_acc:.2f}"
        )
