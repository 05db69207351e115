# expect: view-invalid-shape
# After "shape '[...]' is invalid for input of size" reports, from a preprocessing step run with
# multiprocessing.Pool: the worker's traceback comes back as a RemoteTraceback.
import multiprocessing as mp

import torch

N_MELS = 64


def frames_to_features(n_samples):
    audio = torch.randn(n_samples)
    return audio.view(-1, N_MELS).mean(dim=0)


if __name__ == "__main__":
    lengths = [64 * 100, 64 * 120, 44100]  # the last clip is 1 s at 44.1 kHz
    with mp.get_context("fork").Pool(2) as pool:
        feats = pool.map(frames_to_features, lengths)
    print(torch.stack(feats).shape)
