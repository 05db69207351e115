# expect: ctc-input-layout
import torch
import torch.nn as nn


class SpeechModel(nn.Module):
    def __init__(self, n_mels=40, n_chars=29):
        super().__init__()
        self.rnn = nn.GRU(n_mels, 64, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(128, n_chars)

    def forward(self, x):
        out, _ = self.rnn(x)
        return self.fc(out).log_softmax(-1)


model = SpeechModel()
ctc = nn.CTCLoss(blank=0)
feats = torch.randn(4, 120, 40)  # (batch, time, mels)
targets = torch.randint(1, 29, (4, 20))
log_probs = model(feats)  # (batch, time, chars)
input_lengths = torch.full((4,), 120, dtype=torch.long)
target_lengths = torch.full((4,), 20, dtype=torch.long)
loss = ctc(log_probs, targets, input_lengths, target_lengths)
loss.backward()
print(loss.item())
