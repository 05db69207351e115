"""complex-unsupported-op: an operator that has no kernel for complex dtypes got a complex tensor.

torch.stft(..., return_complex=True), torch.fft.* and complex weights give complex64/complex128
tensors. Ordering and clipping make no sense for complex numbers (is 1+2j or 2+1j larger?),
so clamp, max, min, sort, argmax, relu, gelu and others refuse them: "clamp is not supported for
complex types", '"max_all" not implemented for 'ComplexFloat''. The script builds a log-magnitude
spectrogram the wrong way, clamping the complex STFT itself before the log.
`--fixed` takes the magnitude first (.abs(), a real float32 tensor) and clamps that.
"""

import torch
from _common import fixed_flag

fixed = fixed_flag(__doc__)

torch.manual_seed(0)
sample_rate = 16_000
t = torch.arange(sample_rate) / sample_rate
wave = torch.sin(2 * torch.pi * 440 * t) + 0.1 * torch.randn(sample_rate)

spec = torch.stft(
    wave, n_fft=512, hop_length=128, window=torch.hann_window(512), return_complex=True
)
print(f"STFT: {tuple(spec.shape)} {spec.dtype}")

if fixed:
    magnitude = spec.abs()  # complex64 -> float32
    log_spec = torch.log(magnitude.clamp(min=1e-5))
else:
    log_spec = torch.log(spec.clamp(min=1e-5))  # clamp on complex64: no kernel for it

peak = log_spec.max()
print(
    f"log-magnitude spectrogram: {tuple(log_spec.shape)} {log_spec.dtype}, peak {peak.item():.2f}"
)
