"""multinomial-invalid-probs: sampling with temperature 0 turns the probabilities into nan.

A text generator divides its logits by a temperature before softmax and samples the next token
with torch.multinomial. "Temperature 0 = greedy" is a common expectation, but logits / 0 gives
+inf and -inf, softmax of those is nan, and multinomial refuses the distribution: "probability
tensor contains either `inf`, `nan` or element < 0". `--fixed` takes the argmax when the
temperature is 0 and samples only for a positive temperature.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

vocab, dim = 50, 32
model = nn.Sequential(nn.Embedding(vocab, dim), nn.Linear(dim, vocab))  # a toy language model


@torch.no_grad()
def generate(prompt: list[int], steps: int, temperature: float) -> list[int]:
    tokens = torch.tensor(prompt)
    for _ in range(steps):
        logits = model(tokens)[-1]  # the scores for the next token
        if fixed and temperature == 0:
            next_token = logits.argmax().view(1)  # greedy decoding
        else:
            probs = torch.softmax(logits / temperature, dim=-1)
            next_token = torch.multinomial(probs, num_samples=1)
        tokens = torch.cat([tokens, next_token])
    return tokens.tolist()


print("sampled:", generate([1, 2, 3], steps=5, temperature=0.8))
print("greedy: ", generate([1, 2, 3], steps=5, temperature=0.0))
