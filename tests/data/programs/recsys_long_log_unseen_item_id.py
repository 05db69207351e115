# expect: embedding-index-out-of-range
# A two-tower recommender logged with the logging module: the item vocabulary is built from the
# training interactions, the validation set holds newer items with larger ids. The traceback
# sits between log lines of the run.
import logging

import torch
import torch.nn as nn

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s")
log = logging.getLogger("recsys")
torch.manual_seed(0)
train = torch.stack([torch.randint(0, 500, (4000,)), torch.randint(0, 800, (4000,))], 1)
val = torch.stack([torch.randint(0, 500, (500,)), torch.randint(0, 900, (500,))], 1)
n_users, n_items = int(train[:, 0].max()) + 1, int(train[:, 1].max()) + 1
log.info("users=%d items=%d train=%d val=%d", n_users, n_items, len(train), len(val))
user_tower, item_tower = nn.Embedding(n_users, 32), nn.Embedding(n_items, 32)
opt = torch.optim.Adam([*user_tower.parameters(), *item_tower.parameters()], lr=1e-2)
for epoch in range(2):
    for i in range(0, len(train), 1000):
        u, it = train[i : i + 1000, 0], train[i : i + 1000, 1]
        score = (user_tower(u) * item_tower(it)).sum(1)
        loss = nn.functional.binary_cross_entropy_with_logits(score, torch.ones_like(score))
        opt.zero_grad()
        loss.backward()
        opt.step()
    log.info("epoch %d train loss %.4f", epoch, loss.item())
    try:
        with torch.no_grad():
            val_score = (user_tower(val[:, 0]) * item_tower(val[:, 1])).sum(1)
        log.info("epoch %d val mean score %.4f", epoch, val_score.mean().item())
    except Exception:
        log.exception("validation failed at epoch %d", epoch)
log.info("training finished")
