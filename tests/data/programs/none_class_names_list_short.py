# expect: none
# The class-name list has three entries, the model predicts one of four classes: IndexError:
# list index out of range in the user's printing code.
import torch
import torch.nn as nn

class_names = ["negative", "neutral", "positive"]
model = nn.Linear(16, 4)
torch.manual_seed(3)
model.eval()
with torch.no_grad():
    preds = model(torch.randn(20, 16)).argmax(dim=1)
for i, p in enumerate(preds.tolist()):
    print(f"sample {i}: {class_names[p]}")
