# expect: none
# Tokenising captions in a multiprocessing.Pool, one caption record has no "text" field: a plain
# KeyError, printed through multiprocessing's RemoteTraceback. No PyTorch entry explains it.
import multiprocessing as mp

import torch


def encode(record):
    return torch.tensor([ord(c) % 128 for c in record["text"]])


if __name__ == "__main__":
    records = [{"id": 1, "text": "a dog"}, {"id": 2, "caption": "a cat"}, {"id": 3, "text": "a bird"}]
    with mp.get_context("fork").Pool(2) as pool:
        encoded = pool.map(encode, records)
    print([e.shape for e in encoded])
