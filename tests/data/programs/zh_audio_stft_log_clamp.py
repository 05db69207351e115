# expect: complex-unsupported-op
# 音频分类：自己用 torch.stft 算频谱，return_complex=True 之后忘了取幅值，直接 clamp 再取 log。
import math

import torch

sr = 16000
t = torch.arange(0, 1.0, 1 / sr)
wave = torch.sin(2 * math.pi * 440 * t).unsqueeze(0).repeat(4, 1)  # batch=4
wave = wave + 0.01 * torch.randn_like(wave)
window = torch.hann_window(400)
spec = torch.stft(wave, n_fft=400, hop_length=160, window=window, return_complex=True)
print("频谱形状:", spec.shape)
log_spec = torch.log(torch.clamp(spec, min=1e-6))
print("log 频谱:", log_spec.shape)
