# expect: module-init-not-called
# After "cannot assign module before Module.__init__() call" reports: Python 2 style super() with
# the instance left out, so nn.Module.__init__ never runs.
import torch
import torch.nn as nn


class TextCNN(nn.Module):
    def __init__(self, vocab_size, embed_dim=64, n_classes=2):
        super(TextCNN).__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.conv = nn.Conv1d(embed_dim, 100, 3)
        self.fc = nn.Linear(100, n_classes)

    def forward(self, x):
        h = self.conv(self.embedding(x).transpose(1, 2)).relu().max(dim=2).values
        return self.fc(h)


model = TextCNN(vocab_size=1000)
print(model(torch.randint(0, 1000, (2, 20))))
