# expect: backward-twice
# Node embeddings computed once before the loop (to "save time"), with the encoder still in the
# graph: the second step backpropagates through the encoder's freed graph again.
import torch
import torch.nn as nn

torch.manual_seed(0)
num_nodes, in_dim = 50, 16
x = torch.randn(num_nodes, in_dim)
adj = (torch.rand(num_nodes, num_nodes) < 0.1).float()
adj = adj / adj.sum(1, keepdim=True).clamp(min=1)
labels = torch.randint(0, 3, (num_nodes,))

encoder = nn.Linear(in_dim, 32)
head = nn.Linear(32, 3)
opt = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=0.01)

node_emb = torch.relu(adj @ encoder(x))  # computed once

for epoch in range(5):
    logits = head(node_emb)
    loss = nn.functional.cross_entropy(logits, labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch:02d} | loss {loss.item():.4f}")
