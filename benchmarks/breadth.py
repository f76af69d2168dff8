# ruff: noqa: E501  (a table of code snippets, one per line)
"""Breadth check: everyday operations of both faces, fgrad against its peer in CPU time.

    python -m benchmarks.breadth              # every snippet, fgrad vs torch / jax
    python -m benchmarks.breadth --repeats 15

The main table (``python -m benchmarks``) times issue 16's workloads; this list times the
operations programs call everywhere -- random draws, data loading, sorting, distances,
resizing, normalisation layers, small linear algebra -- so a path that is ten times slower
than the peer shows up before a user finds it.  Each snippet is written once against
``torch`` (or ``jax``/``jnp``) and run in two worker processes, one importing the peer and
one importing fgrad under the peer's name (one thread each, like ``python -m benchmarks``).
Printed: best CPU time of ``--repeats`` runs per library, the ratio fgrad / peer, and the
geometric mean of the ratios per face.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (name, setup, statement): run with `torch` (and `nn`, `F`) bound to the library
TORCH_SNIPPETS = [
    ("randn 1000x1000", "", "torch.randn(1000, 1000)"),
    ("rand 1000x1000", "", "torch.rand(1000, 1000)"),
    ("randint 1e5", "", "torch.randint(0, 10, (100000,))"),
    ("randperm 1e4", "", "torch.randperm(10000)"),
    ("sort 1e5", "y = torch.randn(100000)", "torch.sort(y)"),
    ("topk 1e5, k=10", "y = torch.randn(100000)", "torch.topk(y, 10)"),
    ("cdist 500x400x64", "a = torch.randn(500, 64); b = torch.randn(400, 64)", "torch.cdist(a, b)"),
    ("softmax 1000x1000", "x = torch.randn(1000, 1000)", "torch.softmax(x, -1)"),
    ("interpolate bilinear x2", "x = torch.randn(64, 3, 32, 32)",
     "F.interpolate(x, scale_factor=2, mode='bilinear', align_corners=False)"),
    ("conv1d fwd+bwd", "c = nn.Conv1d(16, 32, 5, padding=2); s = torch.randn(16, 16, 200, requires_grad=True)",
     "c(s).sum().backward()"),
    ("ConvTranspose2d fwd", "ct = nn.ConvTranspose2d(3, 8, 4, 2, 1); x = torch.randn(64, 3, 32, 32)", "ct(x)"),
    ("BatchNorm2d fwd+bwd", "bn = nn.BatchNorm2d(16); x = torch.randn(8, 16, 16, 16, requires_grad=True)",
     "bn(x).sum().backward()"),
    ("LayerNorm fwd+bwd", "ln = nn.LayerNorm(256); z = torch.randn(64, 128, 256, requires_grad=True)",
     "ln(z).sum().backward()"),
    ("cross_entropy 1e4x100", "x = torch.randn(10000, 100, requires_grad=True); t = torch.randint(0, 100, (10000,))",
     "F.cross_entropy(x, t).backward()"),
    ("EmbeddingBag classifier step",
     "emb = nn.EmbeddingBag(5000, 64, mode='mean'); lin = nn.Linear(64, 4)\n"
     "opt = torch.optim.SGD(list(emb.parameters()) + list(lin.parameters()), 0.1)\n"
     "text = torch.randint(0, 5000, (2000,)); offs = torch.arange(0, 2000, 20); lab = torch.randint(0, 4, (100,))",
     "opt.zero_grad(); F.cross_entropy(lin(emb(text, offs)), lab).backward(); opt.step()"),
    ("TransformerEncoderLayer step",
     "enc = nn.TransformerEncoderLayer(64, 4, 128, dropout=0.0, batch_first=True)\n"
     "opt = torch.optim.Adam(enc.parameters(), 1e-3); x = torch.randn(16, 32, 64)",
     "opt.zero_grad(); enc(x).pow(2).mean().backward(); opt.step()"),
    ("MultiheadAttention fwd+bwd", "mha = nn.MultiheadAttention(64, 4, batch_first=True); q = torch.randn(8, 20, 64)",
     "mha.zero_grad(); mha(q, q, q)[0].sum().backward()"),
    ("LSTM inference", "lstm = nn.LSTM(64, 128, batch_first=True); xs = torch.randn(16, 50, 64)",
     "with torch.no_grad(): lstm(xs)"),
    ("Adam step, 100 params",
     "ps = [torch.randn(32, requires_grad=True) for _ in range(100)]\n"
     "for p in ps: p.grad = torch.randn(32)\nopt = torch.optim.Adam(ps, 1e-3)", "opt.step()"),
    ("DataLoader epoch, 4096 rows",
     "dl = torch.utils.data.DataLoader(torch.utils.data.TensorDataset(torch.randn(4096, 8), "
     "torch.randint(0, 2, (4096,))), batch_size=64, shuffle=True)", "for xb, yb in dl: pass"),
    ("per-sample grads (torch.func)",
     "m = nn.Linear(20, 5); p = {k: v.detach() for k, v in m.named_parameters()}\n"
     "def loss(p, x, y): return F.cross_entropy(torch.func.functional_call(m, p, (x[None],)), y[None])\n"
     "g = torch.func.vmap(torch.func.grad(loss), in_dims=(None, 0, 0))\n"
     "xx = torch.randn(64, 20); yy = torch.randint(0, 5, (64,))", "g(p, xx, yy)"),
    ("Normal sample + log_prob", "d = torch.distributions.Normal(torch.zeros(1000), torch.ones(1000))",
     "d.log_prob(d.sample((100,))).sum()"),
    ("linalg.solve 200", "m = torch.randn(200, 200); m = m @ m.T + torch.eye(200); v = torch.randn(200)",
     "torch.linalg.solve(m, v)"),
    ("tensor from a list of 1e4", "vals = list(range(10000))", "torch.tensor(vals, dtype=torch.float32)"),
    ("cat of 100 small tensors", "ts = [torch.ones(10)] * 100", "torch.cat(ts)"),
    # indexing
    ("advanced getitem 1000x64[500]", "x = torch.randn(1000, 64); i = torch.randint(0, 1000, (500,))", "x[i]"),
    ("advanced setitem 1000x64[500]", "x = torch.randn(1000, 64); i = torch.randint(0, 1000, (500,))", "x[i] = 1.0"),
    ("index_select 1000x64", "x = torch.randn(1000, 64); i = torch.randint(0, 1000, (500,))", "torch.index_select(x, 0, i)"),
    ("gather 1000x64, 8 per row", "x = torch.randn(1000, 64); j = torch.randint(0, 64, (1000, 8))", "torch.gather(x, 1, j)"),
    ("scatter_add_ 1000x64", "z = torch.zeros(1000, 64); j = torch.randint(0, 64, (1000, 8)); s = torch.randn(1000, 8)",
     "z.scatter_add_(1, j, s)"),
    ("index_add_ 1000 rows into 100", "z = torch.zeros(100, 64); x = torch.randn(1000, 64); i = torch.randint(0, 100, (1000,))",
     "z.index_add_(0, i, x)"),
    ("masked_fill + masked_select", "x = torch.randn(1000, 64)", "m = x > 0; x.masked_fill(m, 0.0); torch.masked_select(x, m)"),
    ("nonzero + where", "x = torch.randn(1000, 64)", "torch.nonzero(x > 1); torch.where(x > 0, x, 0.0)"),
    # reductions
    ("sum/mean/argmax over dims", "x = torch.randn(1000, 64)", "x.sum(0); x.mean(1); x.argmax(1)"),
    ("cumsum + logsumexp + norm", "x = torch.randn(1000, 64)", "x.cumsum(1); torch.logsumexp(x, 1); torch.linalg.norm(x, dim=1)"),
    ("var + std", "x = torch.randn(1000, 64)", "x.var(0); x.std(1)"),
    # shapes
    ("permute + contiguous", "y = torch.randn(32, 64, 16, 16)", "y.permute(0, 2, 3, 1).contiguous()"),
    ("stack 10, chunk, split", "x = torch.randn(1000, 64); ts = [torch.randn(64, 64) for _ in range(10)]",
     "torch.stack(ts); x.chunk(4, 1); x.split(100, 0)"),
    ("repeat + expand", "x = torch.randn(100, 64)", "x.repeat(2, 3); x[:, None].expand(100, 8, 64).contiguous()"),
    ("pad + clamp", "y = torch.randn(8, 3, 32, 32)", "F.pad(y, (1, 1, 1, 1)); y.clamp(-0.5, 0.5)"),
    # linear algebra, fft
    ("bmm 32x64x64", "a = torch.randn(32, 64, 64); b = torch.randn(32, 64, 64)", "torch.bmm(a, b)"),
    ("einsum bij,bjk->bik", "a = torch.randn(32, 64, 64); b = torch.randn(32, 64, 64)", "torch.einsum('bij,bjk->bik', a, b)"),
    ("linalg inv + solve 32x8x8", "m = torch.randn(32, 8, 8) + 4 * torch.eye(8); v = torch.randn(32, 8, 1)",
     "torch.linalg.inv(m); torch.linalg.solve(m, v)"),
    ("linalg svd + qr + eigh 32x8x8", "m = torch.randn(32, 8, 8); s = m @ m.mT",
     "torch.linalg.svd(m); torch.linalg.qr(m); torch.linalg.eigh(s)"),
    ("rfft + irfft 64x1024", "s = torch.randn(64, 1024)", "torch.fft.irfft(torch.fft.rfft(s), n=1024)"),
    # layers, sampling
    ("embedding 1000 of 5000x64", "w = torch.randn(5000, 64); i = torch.randint(0, 5000, (1000,))", "F.embedding(i, w)"),
    ("dropout train 1000x64", "x = torch.randn(1000, 64)", "F.dropout(x, 0.5, training=True)"),
    ("unique + bincount + histc", "k = torch.randint(0, 100, (10000,)); x = torch.randn(10000)",
     "torch.unique(k); torch.bincount(k); torch.histc(x, 50)"),
    # creation, host round trips
    ("arange + zeros + full", "", "torch.arange(10000); torch.zeros(100, 100); torch.full((100, 100), 3.0)"),
    (".item() + .tolist() + .numpy()", "x = torch.randn(100); y = torch.randn(1000, 64)",
     "x.sum().item(); x.tolist(); y.numpy()"),
    # autograd dispatch of a small graph
    ("small graph backward", "w = torch.randn(32, 16, requires_grad=True); b = torch.zeros(16, requires_grad=True)\n"
     "x = torch.randn(8, 32)", "w.grad = b.grad = None; (torch.tanh(x @ w + b) ** 2).mean().backward()"),
]

# run with `jax`, `jnp` bound to the library (x64 on, as fgrad's default)
JAX_SNIPPETS = [
    ("random.normal 1e5", "k = jax.random.PRNGKey(0)", "jax.random.normal(k, (100000,)).block_until_ready()"),
    ("random.normal 1e5 float32", "k = jax.random.PRNGKey(0)",
     "jax.random.normal(k, (100000,), jnp.float32).block_until_ready()"),
    ("random.uniform 1e5", "k = jax.random.PRNGKey(0)", "jax.random.uniform(k, (100000,)).block_until_ready()"),
    ("random.randint 1e5", "k = jax.random.PRNGKey(0)",
     "jax.random.randint(k, (100000,), 0, 10).block_until_ready()"),
    ("random.split 1000", "k = jax.random.PRNGKey(0)", "jax.random.split(k, 1000).block_until_ready()"),
    ("eager op chain", "import numpy as np; x = jnp.asarray(np.ones((64, 32), np.float32)); "
     "W = jnp.asarray(np.ones((32, 32), np.float32))",
     "(jnp.tanh(x @ W + 1.0).sum(axis=0) * 2 - jnp.exp(-x).mean()).block_until_ready()"),
    ("eager grad", "import numpy as np; x = jnp.asarray(np.ones((64, 32))); W = jnp.asarray(np.ones((32, 32)))\n"
     "g = jax.grad(lambda w: jnp.sum(jnp.tanh(x @ w) ** 2))", "g(W).block_until_ready()"),
    ("jit scan 64 steps", "import numpy as np; x = jnp.asarray(np.ones((64, 32)))\n"
     "f = jax.jit(lambda x: jax.lax.scan(lambda c, xi: (c * 0.9 + xi, c.sum()), jnp.zeros(32), x))",
     "jax.block_until_ready(f(x))"),
    ("jit fori_loop 100", "import numpy as np; x = jnp.asarray(np.ones((64, 32)))\n"
     "f = jax.jit(lambda x: jax.lax.fori_loop(0, 100, lambda i, c: jnp.sin(c) * 0.9 + 0.1, x))",
     "f(x).block_until_ready()"),
    ("linalg.eigh 100", "import numpy as np; a = np.random.default_rng(0).standard_normal((100, 100)); "
     "s = jnp.asarray(a @ a.T)", "jax.block_until_ready(jnp.linalg.eigh(s))"),
    ("sort 1e5", "import numpy as np; y = jnp.asarray(np.random.default_rng(0).standard_normal(100000))",
     "jnp.sort(y).block_until_ready()"),
    (".at[].add 1e4", "import numpy as np; idx = jnp.asarray(np.random.default_rng(0).integers(0, 100, 10000))",
     "jnp.zeros(100).at[idx].add(1.0).block_until_ready()"),
    ("indexing: gather + slice", "import numpy as np; x = jnp.asarray(np.ones((1000, 64))); "
     "i = jnp.asarray(np.random.default_rng(0).integers(0, 1000, 500))",
     "x[i].block_until_ready(); x[10:500:2, ::4].block_until_ready()"),
    (".at[].set 500 rows", "import numpy as np; x = jnp.asarray(np.ones((1000, 64))); "
     "i = jnp.asarray(np.random.default_rng(0).integers(0, 1000, 500))", "x.at[i].set(0.0).block_until_ready()"),
    ("take_along_axis 1000x64", "import numpy as np; x = jnp.asarray(np.ones((1000, 64))); "
     "j = jnp.asarray(np.random.default_rng(0).integers(0, 64, (1000, 8)))",
     "jnp.take_along_axis(x, j, axis=1).block_until_ready()"),
    ("cumsum + logsumexp + argmax", "import numpy as np; x = jnp.asarray(np.random.default_rng(0).standard_normal((1000, 64)))",
     "jnp.cumsum(x, 1).block_until_ready(); jax.nn.logsumexp(x, 1).block_until_ready(); "
     "jnp.argmax(x, 1).block_until_ready()"),
    ("where + var", "import numpy as np; x = jnp.asarray(np.random.default_rng(0).standard_normal((1000, 64)))",
     "jnp.where(x > 0, x, 0.0).block_until_ready(); jnp.var(x, 0).block_until_ready()"),
    ("concatenate of 100 small", "xs = [jnp.ones(10)] * 100", "jnp.concatenate(xs).block_until_ready()"),
    ("einsum bij,bjk->bik", "import numpy as np; a = jnp.asarray(np.ones((32, 64, 64)))",
     "jnp.einsum('bij,bjk->bik', a, a).block_until_ready()"),
    ("linalg inv + svd 32x8x8", "import numpy as np; m = jnp.asarray(np.random.default_rng(0).standard_normal((32, 8, 8)))",
     "jax.block_until_ready((jnp.linalg.inv(m), jnp.linalg.svd(m)))"),
    ("rfft + irfft 64x1024", "import numpy as np; s = jnp.asarray(np.random.default_rng(0).standard_normal((64, 1024)))",
     "jnp.fft.irfft(jnp.fft.rfft(s), n=1024).block_until_ready()"),
    ("vmap of a small fn", "import numpy as np; x = jnp.asarray(np.ones((64, 32)))\n"
     "f = jax.vmap(lambda r: jnp.dot(r, r) + jnp.sin(r).sum())", "f(x).block_until_ready()"),
    ("eager grad, small fn", "g = jax.grad(lambda a: jnp.sin(a) * a ** 2)", "g(0.5).block_until_ready()"),
    ("jit dispatch with a pytree", "import numpy as np\n"
     "p = {'w': jnp.asarray(np.ones((8, 8))), 'b': jnp.zeros(8), 'layers': [jnp.ones(8)] * 4}\n"
     "f = jax.jit(lambda p, x: jnp.tanh(x @ p['w'] + p['b']) + sum(p['layers']))\nx = jnp.ones((4, 8))",
     "f(p, x).block_until_ready()"),
]


def _worker(face: str, lib: str, repeats: int) -> None:
    sys.path.insert(0, ROOT)
    import benchmarks  # noqa: F401  (one thread, before numpy/torch/jax)

    ns: dict = {}
    if face == "torch":
        if lib == "peer":
            import torch
            torch.set_num_threads(1)
        else:
            import fgrad.torch as torch
        ns.update(torch=torch, nn=torch.nn, F=torch.nn.functional)
        snippets = TORCH_SNIPPETS
    else:
        if lib == "peer":
            import jax
            import jax.numpy as jnp
            jax.config.update("jax_enable_x64", True)
        else:
            import fgrad as jax
            import fgrad.numpy as jnp
        ns.update(jax=jax, jnp=jnp)
        snippets = JAX_SNIPPETS
    times = {}
    for name, setup, stmt in snippets:
        if face == "torch":
            ns["torch"].manual_seed(0)
        exec(setup, ns)
        code = compile(stmt, name, "exec")
        exec(code, ns)  # first call: staging, caches
        best = math.inf
        for _ in range(repeats):
            t0 = time.process_time()
            exec(code, ns)
            best = min(best, time.process_time() - t0)
        times[name] = best
    print(json.dumps(times))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=9)
    ap.add_argument("--face", choices=["torch", "jax", "both"], default="both")
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        _worker(a.worker[0], a.worker[1], a.repeats)
        return
    for face in (["torch", "jax"] if a.face == "both" else [a.face]):
        res = {}
        for lib in ("peer", "fgrad"):
            out = subprocess.run([sys.executable, "-m", "benchmarks.breadth", "--repeats", str(a.repeats),
                                  "--worker", face, lib], cwd=ROOT, capture_output=True, text=True, check=True)
            res[lib] = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"\n{'operation (' + face + ' face)':40s} {'fgrad':>10s} {face:>10s} {'ratio':>7s}")
        logs = []
        for name in res["peer"]:
            f, p = res["fgrad"][name], res["peer"][name]
            r = f / p if p > 0 else math.inf
            logs.append(math.log(max(r, 1e-9)))
            print(f"{name:40s} {f * 1e3:8.2f}ms {p * 1e3:8.2f}ms {r:6.2f}x")
        print(f"{'geometric mean':40s} {'':10s} {'':10s} {math.exp(sum(logs) / len(logs)):6.2f}x")


if __name__ == "__main__":
    main()
