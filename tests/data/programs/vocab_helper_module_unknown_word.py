# expect: embedding-index-out-of-range
# After https://github.com/karpathy/ng-video-lecture/issues/20 and
# https://github.com/voidism/DiffCSE/issues/20 (IndexError: index out of range in self): the
# tokenizer lives in its own module; words unseen in training get a new id past the table.
import os
import sys
import tempfile

HELPER = '''
class Vocab:
    def __init__(self, sentences):
        self.stoi = {"<pad>": 0}
        for s in sentences:
            for w in s.split():
                self.stoi.setdefault(w, len(self.stoi))

    def __len__(self):
        return len(self.stoi)

    def encode(self, sentence):
        # unknown words get the next free id
        return [self.stoi.setdefault(w, len(self.stoi)) for w in sentence.split()]
'''

pkg = tempfile.mkdtemp()
with open(os.path.join(pkg, "text_utils.py"), "w") as f:
    f.write(HELPER)
sys.path.insert(0, pkg)

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402
from text_utils import Vocab  # noqa: E402

train_texts = ["the movie was great", "the plot was boring", "great acting"]
vocab = Vocab(train_texts)


class SentimentModel(nn.Module):
    def __init__(self, vocab_size, dim=16):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, dim)
        self.fc = nn.Linear(dim, 2)

    def forward(self, ids):
        return self.fc(self.embedding(ids).mean(dim=1))


model = SentimentModel(len(vocab))
model.eval()
for text in ["the movie was great", "the soundtrack was wonderful"]:
    ids = torch.tensor([vocab.encode(text)])
    with torch.no_grad():
        print(text, "->", model(ids).argmax(dim=1).item())
