# expect: multinomial-invalid-probs
import torch

logits = torch.randn(2, 5)
next_tok = torch.multinomial(logits, 1)
