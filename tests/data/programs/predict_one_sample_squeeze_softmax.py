# expect: dim-out-of-range
# After "Dimension out of range (expected to be in range of [-1, 0], but got 1)" reports: the
# batch dimension squeezed away when predicting one sample, then softmax over dim=1.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4))
model.eval()


def predict(features):
    x = torch.tensor(features, dtype=torch.float32).unsqueeze(0)
    with torch.no_grad():
        logits = model(x).squeeze()
    probs = torch.softmax(logits, dim=1)
    return probs.argmax(dim=1).item()


print(predict([0.1] * 8))
