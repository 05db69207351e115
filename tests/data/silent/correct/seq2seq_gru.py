# summary: the PyTorch seq2seq tutorial's shape: GRU encoder and decoder with teacher forcing, two optimizers (one per module), NLLLoss over log_softmax, one watch per module
import random

import torch
from torch import nn

import diagnoser

SOS, EOS, VOCAB, HIDDEN = 0, 1, 40, 32


class EncoderRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, HIDDEN)
        self.gru = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.dropout = nn.Dropout(0.1)

    def forward(self, input):
        return self.gru(self.dropout(self.embedding(input)))


class DecoderRNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, HIDDEN)
        self.gru = nn.GRU(HIDDEN, HIDDEN, batch_first=True)
        self.out = nn.Linear(HIDDEN, VOCAB)

    def forward(self, hidden, target):
        decoder_input = torch.full((target.size(0), 1), SOS, dtype=torch.long)
        outputs = []
        for i in range(target.size(1)):
            output, hidden = self.gru(torch.relu(self.embedding(decoder_input)), hidden)
            outputs.append(self.out(output))
            if random.random() < 0.5:
                decoder_input = target[:, i].unsqueeze(1)  # teacher forcing
            else:
                decoder_input = outputs[-1].argmax(-1).detach()
        return torch.log_softmax(torch.cat(outputs, 1), dim=-1)


random.seed(0)
torch.manual_seed(0)
encoder, decoder = EncoderRNN(), DecoderRNN()
encoder_optimizer = torch.optim.Adam(encoder.parameters(), lr=1e-3)
decoder_optimizer = torch.optim.Adam(decoder.parameters(), lr=1e-3)
criterion = nn.NLLLoss()
pairs = [(torch.randint(2, VOCAB, (8, 7)), torch.randint(2, VOCAB, (8, 6))) for _ in range(6)]
with diagnoser.watch(encoder, label="encoder") as we, diagnoser.watch(decoder, label="decoder") as wd:
    for input_tensor, target_tensor in pairs:
        encoder_optimizer.zero_grad()
        decoder_optimizer.zero_grad()
        _, encoder_hidden = encoder(input_tensor)
        decoder_outputs = decoder(encoder_hidden, target_tensor)
        loss = criterion(decoder_outputs.view(-1, VOCAB), target_tensor.view(-1))
        loss.backward()
        encoder_optimizer.step()
        decoder_optimizer.step()
        we.step(loss)
        wd.step(loss)
