"""Diagnosis inside the user's process: the exception hook, `diagnoser run`, the IPython
extension, the failing frames' tensors and the environment report. Nothing here imports torch
until a torch-needing function is called (`diagnoser env`); capturing tensors only looks at
torch when the user's program has already imported it."""
