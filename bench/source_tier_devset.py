"""A development set for the source tier (issue 24): errors torch 2.13 itself prints for ~100
small misuses, each diagnosed; for those no family matches, where the tier locates them.

    python bench/source_tier_devset.py > /tmp/dev.tsv
    python bench/source_tier_devset.py --real   # the real posts of tests/data/real/devset

Prints one tab-separated line an error: snippet, exception, message, the family matched (or -),
the count of sites and the first three sites (file:line function). The hand-checked verdicts of a
run are kept in tests/data/source_tier_dev.tsv (correct / wrong / none, with why).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SNIPPETS = [
    "torch.zeros(3).view(2, 2)",
    "torch.arange(0, 10, -1)",
    "torch.zeros(3).topk(5)",
    "torch.zeros(2, 3).repeat(2)",
    "F.pad(torch.zeros(1, 2), (5, 5), mode='reflect')",
    "torch.nn.Conv2d(3, 8, 3, padding='same', stride=2)",
    "torch.linalg.cholesky(-torch.eye(2))",
    "torch.linalg.inv(torch.zeros(2, 2))",
    "torch.linalg.solve(torch.zeros(2, 3), torch.zeros(2))",
    "torch.linalg.det(torch.zeros(2, 3))",
    "torch.zeros(2, 3).unfold(1, 5, 1)",
    "torch.zeros(4).chunk(0)",
    "torch.zeros(4).split(0)",
    "torch.zeros(2, 3).narrow(1, 2, 5)",
    "torch.zeros(2, 3).flip(5)",
    "torch.zeros(2, 3).roll(1, 5)",
    "torch.zeros(3).diag(0).diag_embed(0, 0, 0)",
    "torch.zeros(2, 3).t().view(6)",
    "torch.zeros(2, 3).transpose(0, 1).view(-1)",
    "torch.zeros(2, 3).reshape(-1, -1)",
    "torch.zeros(2, 3).reshape(4, -1)",
    "torch.zeros(2, 3).permute(0, 0)",
    "torch.zeros(5).scatter_(0, torch.tensor([7]), 1.0)",
    "torch.zeros(5).index_add_(0, torch.tensor([0]), torch.zeros(2))",
    "torch.zeros(5).index_fill_(0, torch.tensor([0.5]), 1.0)",
    "torch.zeros(5).index_copy_(0, torch.tensor([0, 1]), torch.zeros(3))",
    "torch.zeros(5).put_(torch.tensor([9]), torch.tensor([1.0]))",
    "torch.zeros(5).take(torch.tensor([9]))",
    "torch.zeros(2, 2).masked_scatter_(torch.ones(2, 2, dtype=torch.bool), torch.zeros(2))",
    "torch.zeros(3, 3).tril_(torch.zeros(1))",
    "torch.histc(torch.zeros(3), bins=-1)",
    "torch.bincount(torch.tensor([-1]))",
    "torch.bincount(torch.zeros(2, 2, dtype=torch.long))",
    "torch.randint(5, 2, (3,))",
    "torch.randperm(-1)",
    "torch.normal(torch.zeros(2), -torch.ones(2))",
    "torch.bernoulli(torch.tensor([2.0]))",
    "torch.zeros(3).uniform_(2, 1)",
    "torch.empty(-1)",
    "torch.full((2,), 1.0).new_full((-2,), 0)",
    "torch.zeros(3).clamp(min=torch.zeros(2))",
    "torch.kron(torch.zeros(2), 3)",
    "torch.cross(torch.zeros(2), torch.zeros(2), dim=0)",
    "torch.dot(torch.zeros(2), torch.zeros(3))",
    "torch.dot(torch.zeros(2, 2), torch.zeros(2, 2))",
    "torch.mv(torch.zeros(2, 3), torch.zeros(2))",
    "torch.bmm(torch.zeros(2, 2, 3), torch.zeros(3, 2, 2))",
    "torch.outer(torch.zeros(2, 2), torch.zeros(2))",
    "torch.einsum('ij,jk->ik', torch.zeros(2, 3), torch.zeros(4, 5))",
    "torch.einsum('ij->ijk', torch.zeros(2, 3))",
    "torch.tensordot(torch.zeros(2, 3), torch.zeros(4, 5), dims=([1], [0]))",
    "torch.cumsum(torch.zeros(3), dim=3)",
    "torch.sort(torch.zeros(3), dim=2)",
    "torch.kthvalue(torch.zeros(3), 5)",
    "torch.quantile(torch.zeros(3), 2.0)",
    "torch.nanquantile(torch.zeros(3), torch.tensor([0.5]), interpolation='foo')",
    "torch.unique(torch.zeros(3), dim=4)",
    "torch.cdist(torch.zeros(2, 3), torch.zeros(2, 4))",
    "torch.pdist(torch.zeros(3))",
    "torch.cov(torch.zeros(2, 2, 2))",
    "torch.meshgrid(torch.zeros(2, 2), indexing='ij')",
    "torch.fft.fft(torch.zeros(3), n=0)",
    "torch.stft(torch.zeros(10), 4, return_complex=False)",
    "torch.polar(torch.zeros(2, dtype=torch.int64), torch.zeros(2))",
    "torch.complex(torch.zeros(2), torch.zeros(2, dtype=torch.float64))",
    "torch.view_as_complex(torch.zeros(3))",
    "torch.view_as_real(torch.zeros(3))",
    "torch.zeros(2, dtype=torch.bool).neg()",
    "torch.zeros(2, dtype=torch.bool) - torch.zeros(2, dtype=torch.bool)",
    "torch.zeros(2, dtype=torch.long).sqrt_()",
    "torch.zeros(2).bitwise_and(torch.zeros(2))",
    "torch.zeros(2, dtype=torch.long).div_(2.5)",
    "torch.tensor([1, 2]).float().lerp(torch.zeros(2, dtype=torch.float64), 0.5)",
    "torch.zeros(2).to(torch.int32).requires_grad_()",
    "torch.zeros(2, requires_grad=True).resize_(3)",
    "torch.zeros(2, requires_grad=True).numpy()",
    "torch.zeros(2, requires_grad=True).add_(1)",
    "torch.autograd.grad(torch.zeros(2, requires_grad=True).sum(), torch.zeros(2))",
    "torch.zeros(2).sum().backward()",
    "torch.autograd.functional.jacobian(lambda x: x, 3)",
    "F.conv2d(torch.zeros(1, 3, 5, 5), torch.zeros(8, 4, 3, 3))",
    "F.conv1d(torch.zeros(1, 3, 5), torch.zeros(8, 3, 7))",
    "F.conv2d(torch.zeros(1, 4, 5, 5), torch.zeros(8, 2, 3, 3), groups=3)",
    "F.max_pool2d(torch.zeros(1, 1, 2, 2), 5)",
    "F.avg_pool2d(torch.zeros(1, 1, 4, 4), 2, padding=3)",
    "F.adaptive_avg_pool2d(torch.zeros(1, 1, 4, 4), (0, 2))",
    "F.batch_norm(torch.zeros(2, 3), torch.zeros(4), torch.zeros(4))",
    "F.layer_norm(torch.zeros(2, 3), (4,))",
    "F.group_norm(torch.zeros(2, 6), 4)",
    "F.instance_norm(torch.zeros(1, 3))",
    "F.embedding(torch.tensor([5]), torch.zeros(3, 2))",
    "F.embedding_bag(torch.tensor([0, 1]), torch.zeros(3, 2), torch.tensor([1, 0]))",
    "F.cross_entropy(torch.zeros(2, 3), torch.tensor([0, 1]), label_smoothing=2.0)",
    "F.nll_loss(torch.zeros(2, 3), torch.tensor([0, 1]), reduction='foo')",
    "F.kl_div(torch.zeros(2), torch.zeros(3))",
    "F.binary_cross_entropy(torch.zeros(2), torch.zeros(3))",
    "F.ctc_loss(torch.zeros(5, 2, 3), torch.zeros(2, 4, dtype=torch.long), (5, 5), (6, 6))",
    "F.softmax(torch.zeros(2, 3), dim=4)",
    "F.dropout(torch.zeros(2), p=1.5)",
    "F.unfold(torch.zeros(1, 1, 3), 2)",
    "F.fold(torch.zeros(1, 4, 5), (3, 3), 2)",
    "F.grid_sample(torch.zeros(1, 1, 4, 4), torch.zeros(1, 2, 2, 3))",
    "F.affine_grid(torch.zeros(1, 3, 3), (1, 1, 4, 4))",
    "F.pixel_shuffle(torch.zeros(1, 3, 2, 2), 2)",
    "F.scaled_dot_product_attention(torch.zeros(1, 2, 3), torch.zeros(1, 4, 5),"
    " torch.zeros(1, 4, 5))",
    "torch.nn.MultiheadAttention(10, 3)",
    "torch.nn.LSTM(3, 4)(torch.zeros(2, 5, 6))",
    "torch.nn.GRU(3, 4, batch_first=True)(torch.zeros(2, 5, 3), torch.zeros(2, 2, 4))",
    "torch.nn.Linear(3, 4).load_state_dict({'weight': torch.zeros(4, 3)})",
    "torch.nn.Sequential(torch.nn.Linear(2, 2))[5]",
    "torch.nn.ModuleList([1])",
    "torch.nn.Module().register_buffer('a.b', torch.zeros(1))",
    "torch.nn.Module().register_parameter('x', torch.zeros(1))",
    "torch.nn.utils.clip_grad_norm_([torch.zeros(2, requires_grad=True)], 1.0, norm_type='foo')",
    "torch.optim.SGD([torch.zeros(2, requires_grad=True)], lr=-1)",
    "torch.optim.Adam([torch.zeros(2, requires_grad=True)], betas=(1.5, 0.9))",
    "torch.optim.SGD([], lr=0.1)",
    "torch.optim.lr_scheduler.StepLR(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1),"
    " step_size=0).step()",
    "torch.utils.data.DataLoader(range(3), batch_size=0)",
    "torch.utils.data.DataLoader(range(3), shuffle=True, sampler=[0, 1])",
    "torch.utils.data.random_split(range(10), [3, 3])",
    "torch.utils.data.Subset(range(3), [0])[5]",
    "torch.save(torch.zeros(1), 5)",
    "torch.zeros(2).to('cuda:x')",
    "torch.device('tpu')",
    "torch.zeros(2, dtype='float32')",
    "torch.tensor([[1, 2], [3]])",
    "torch.tensor('abc')",
    "torch.zeros(2).item()",
    "torch.zeros(2).tolist()[5]",
    "bool(torch.zeros(2))",
    "int(torch.zeros(2))",
    "torch.zeros(2).expand(3)",
    "torch.zeros(2, 3).as_strided((2, 3), (100, 1)).sum()",
    "torch.zeros(6).storage().resize_(-1)",
    "torch.jit.script(lambda x: x.foo())",
    "torch.func.vmap(lambda x: x.item())(torch.zeros(3))",
    "torch.func.grad(lambda x: x)(torch.zeros(3))",
    "torch.distributions.Normal(0.0, -1.0)",
    "torch.distributions.Categorical(probs=torch.tensor([0.5, -0.5]))",
    "torch.nn.init.kaiming_normal_(torch.zeros(3))",
    "torch.nn.init.orthogonal_(torch.zeros(3))",
    "torch.manual_seed(-1)",
    "torch.set_num_threads(0)",
    "torch.nn.functional.one_hot(torch.tensor([1.0]))",
    "torch.sparse_coo_tensor(torch.tensor([[0, 5]]), torch.tensor([1.0, 2.0]), (3,))",
    "torch.zeros(2).to_sparse().view(2)",
    "torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)]).view(5)",
    "torch.quantize_per_tensor(torch.zeros(2), 0.1, 0, torch.float32)",
]


def real_posts() -> int:
    """The development set of real posts (labelled before the tool ran): for each kind, how many
    posts no family matches and how many of those the tier locates; each located one printed."""
    from collections import Counter

    import yaml

    from diagnoser import diagnose

    counts: Counter[tuple[str, str]] = Counter()
    for path in sorted((ROOT / "tests" / "data" / "real" / "devset").glob("*.yaml")):
        for post in yaml.safe_load(path.read_text(encoding="utf-8")):
            report = diagnose(post["text"], lang="en")
            if report["matches"]:
                continue
            src = report["source"]
            counts[(post["kind"], "located" if src else "not located")] += 1
            if src:
                s = src["sites"][0]
                print(f"{post['id']}\t{post['kind']}\t{s['file']}:{s['line']} {s['function']}")
    for (kind, what), n in sorted(counts.items()):
        print(f"declined {kind} posts, {what}: {n}")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--real"]:
        return real_posts()
    import torch  # noqa: F401
    import torch.nn.functional as F  # noqa: F401

    from diagnoser import diagnose

    for code in SNIPPETS:
        try:
            exec(code)
        except Exception as e:  # every error torch raises is data here
            exc, msg = type(e).__name__, str(e)
        else:
            continue
        first = msg.strip().split("\n")[0][:300]
        report = diagnose(f"{exc}: {msg}", lang="en")
        family = report["matches"][0]["id"] if report["matches"] else "-"
        src = report["source"]
        sites = (
            " | ".join(f"{s['file']}:{s['line']} {s['function']}" for s in src["sites"])
            if src
            else "-"
        )
        count = src["count"] if src else 0
        print("\t".join([code, exc, first, family, str(count), sites]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
