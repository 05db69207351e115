# expect: shape-matmul
# After "mat1 and mat2 shapes cannot be multiplied" reports where the trainer catches the error and
# prints only its repr (print("...", repr(e))), as in https://github.com/modelscope/facechain/issues/322
# style one-line posts: no traceback, the message inside RuntimeError('...').
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 5))
opt = torch.optim.Adam(model.parameters())
batches = [(torch.randn(8, 10), torch.randint(0, 5, (8,))) for _ in range(3)]
batches.append((torch.randn(8, 20), torch.randint(0, 5, (8,))))  # a batch from the new feature set
failed = 0
for i, (x, y) in enumerate(batches):
    try:
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"batch {i} ok, loss {loss.item():.3f}")
    except Exception as e:
        failed += 1
        print(f"batch {i} failed:", repr(e))
print(f"{failed} batch(es) failed")
