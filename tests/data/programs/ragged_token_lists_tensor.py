# expect: numpy-object-dtype
# After "can't convert np.ndarray of type numpy.object_" reports: token id lists of different
# lengths collected into a numpy array (as a pandas column would give) and turned into a tensor.
import numpy as np
import torch

sentences = ["a b c", "d e", "f g h i"]
vocab = {w: i + 1 for i, w in enumerate("abcdefghi")}
ids = np.array([[vocab[w] for w in s.split()] for s in sentences], dtype=object)
print("ids", ids.shape, ids.dtype)
tokens = torch.from_numpy(ids)
print(tokens)
