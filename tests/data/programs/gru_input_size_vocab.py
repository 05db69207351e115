# expect: rnn-input-size
# Sentiment GRU: input_size given the vocabulary size instead of the embedding dimension.
import torch
import torch.nn as nn

VOCAB_SIZE = 3000
EMBED_DIM = 100
HIDDEN = 64


class SentimentGRU(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB_SIZE, EMBED_DIM, padding_idx=0)
        self.gru = nn.GRU(VOCAB_SIZE, HIDDEN, batch_first=True)
        self.fc = nn.Linear(HIDDEN, 1)

    def forward(self, x):
        emb = self.embedding(x)
        _, h = self.gru(emb)
        return self.fc(h[-1]).squeeze(-1)


model = SentimentGRU()
x = torch.randint(1, VOCAB_SIZE, (32, 50))
y = torch.randint(0, 2, (32,)).float()
loss = nn.BCEWithLogitsLoss()(model(x), y)
loss.backward()
