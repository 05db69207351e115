# expect: collate-unequal-size
# After https://github.com/Suanmd/TR-MISR/issues/7 (stack expects each tensor to be equal size),
# in a hand-written prefetcher: the batch is stacked in a background thread, whose exception
# Python prints as "Exception in thread ...".
import queue
import threading

import torch


def load_sample(i):
    length = 100 if i % 5 else 80  # some clips are shorter
    return torch.randn(1, length)


def prefetch(indices, out, batch_size=4):
    for start in range(0, len(indices), batch_size):
        batch = [load_sample(i) for i in indices[start:start + batch_size]]
        out.put(torch.stack(batch))
    out.put(None)


q = queue.Queue(maxsize=2)
t = threading.Thread(target=prefetch, args=(list(range(1, 16)), q), name="prefetcher")
t.start()
t.join()
while not q.empty() and (item := q.get_nowait()) is not None:
    print(item.shape)
