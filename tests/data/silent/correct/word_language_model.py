# summary: pytorch/examples word_language_model: embedding + LSTM + tied decoder, dropout, hidden state detached between batches, clip_grad_norm_ and the manual SGD update the example uses (no torch.optim), eval pass
import math

import torch
import torch.nn as nn

import diagnoser


class RNNModel(nn.Module):
    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.2, tie_weights=True):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.nhid, self.nlayers = nhid, nlayers
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        return torch.log_softmax(self.decoder(output), dim=-1).view(-1, self.decoder.out_features), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid), weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    return tuple(v.detach() for v in h)


torch.manual_seed(1111)
ntokens, bptt, batch_size, lr, clip = 200, 12, 8, 20.0, 0.25
corpus = torch.randint(0, ntokens, (bptt * 10 + 1, batch_size))
model = RNNModel(ntokens, 32, 32, 2)
criterion = nn.NLLLoss()

with diagnoser.watch(model) as w:
    model.train()
    hidden = model.init_hidden(batch_size)
    for i in range(0, bptt * 8, bptt):
        data, targets = corpus[i : i + bptt], corpus[i + 1 : i + 1 + bptt].reshape(-1)
        model.zero_grad()
        hidden = repackage_hidden(hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        w.step(loss)
    model.eval()
    with torch.no_grad():
        hidden = model.init_hidden(batch_size)
        output, _ = model(corpus[:bptt], hidden)
        print("val ppl", math.exp(criterion(output, corpus[1 : bptt + 1].reshape(-1)).item()))
