# expect: batch-size-mismatch
# After the Transformer tutorial reports like https://github.com/ajhalthor/Transformer-Neural-Network/issues/13:
# token-level logits flattened over (batch*time) while the targets are one label per sentence.
# The training step catches the exception and logs it, as many trainers do.
import logging

import torch
import torch.nn as nn

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
log = logging.getLogger("trainer")


class Tagger(nn.Module):
    def __init__(self, vocab=100, dim=32, n_classes=5):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.rnn = nn.LSTM(dim, dim, batch_first=True)
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, tokens):
        h, _ = self.rnn(self.emb(tokens))
        return self.fc(h)


def train_step(model, opt, tokens, labels):
    logits = model(tokens)
    loss = nn.functional.cross_entropy(logits.view(-1, logits.size(-1)), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


model = Tagger()
opt = torch.optim.Adam(model.parameters())
for step in range(3):
    tokens = torch.randint(0, 100, (16, 10))
    labels = torch.randint(0, 5, (16,))
    try:
        log.info("step %d loss %.4f", step, train_step(model, opt, tokens, labels))
    except Exception:
        log.exception("training step %d failed", step)
        break
