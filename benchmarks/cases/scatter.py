"""Scatter-add workloads (issue 16, `docs/speed-scatter.md`): a BCOO sparse-dense product,
``segment_sum`` and an embedding gradient under ``jit``, each side by side with ``jax.jit``;
the numpy column is ``np.add.at`` (the scatter-add fgrad ran on the host before)."""

from __future__ import annotations

import numpy as np

from . import Case, block, register


class _ScatterVsJax(Case):
    group = "jit"
    issue = 16
    reference = "jax"
    jax_x64 = False  # float32 data, int32 indices on both sides
    rtol, atol = 1e-4, 1e-4  # XLA sums a target's updates in its own order

    def _run(self, lib, m, ops, sparse):
        raise NotImplementedError

    def fgrad(self):
        import fgrad
        import fgrad.numpy as fnp
        import fgrad.ops
        from fgrad.experimental import sparse

        return self._run(fgrad, fnp, fgrad.ops, sparse)

    def jax(self):
        import jax
        import jax.numpy as jnp
        from jax.experimental import sparse

        return self._run(jax, jnp, jax.ops, sparse)


@register
class SparseDenseProduct(_ScatterVsJax):
    name = "sparse_matmul"
    short = "jit: BCOO @ dense"
    title = ("`jit(S @ X)`: BCOO `S` 5000 × 5000 with 50,000 stored elements, `X` 5000 × 16 "
             "(float32)")
    goals = [("jax", 3.0)]
    notes = {"jax": "`jax.jit`, `jax.experimental.sparse.BCOO`", "numpy": "products + `np.add.at`"}

    def setup(self):
        rng = np.random.default_rng(0)
        n, nse = 5000, 50_000
        flat = np.sort(rng.choice(n * n, nse, replace=False))
        self.rows, self.cols = (flat // n).astype(np.int32), (flat % n).astype(np.int32)
        self.data = rng.standard_normal(nse).astype(np.float32)
        self.x = rng.standard_normal((n, 16)).astype(np.float32)
        self.shape = (n, n)

    def _run(self, lib, m, ops, sparse):
        s = sparse.BCOO((m.asarray(self.data), m.asarray(np.stack([self.rows, self.cols], 1))),
                        shape=self.shape)
        f, x = lib.jit(lambda s, x: s @ x), m.asarray(self.x)
        return lambda: np.asarray(block(f(s, x)))

    def numpy(self):
        def run():
            out = np.zeros((self.shape[0], self.x.shape[1]), np.float32)
            np.add.at(out, self.rows, self.data[:, None] * self.x[self.cols])
            return out

        return run


@register
class SegmentSum(_ScatterVsJax):
    name = "segment_sum"
    short = "jit: segment_sum"
    title = "`jit(segment_sum)`: 100,000 rows of 64 into 1,000 segments (float32)"
    goals = [("jax", 1.5)]
    notes = {"jax": "`jax.jit(jax.ops.segment_sum)`", "numpy": "`np.add.at`"}

    def setup(self):
        rng = np.random.default_rng(0)
        self.data = rng.standard_normal((100_000, 64)).astype(np.float32)
        self.ids = rng.integers(0, 1000, 100_000).astype(np.int32)

    def _run(self, lib, m, ops, sparse):
        f = lib.jit(lambda d, i: ops.segment_sum(d, i, num_segments=1000))
        d, i = m.asarray(self.data), m.asarray(self.ids)
        return lambda: np.asarray(block(f(d, i)))

    def numpy(self):
        def run():
            out = np.zeros((1000, 64), np.float32)
            np.add.at(out, self.ids, self.data)
            return out

        return run


@register
class EmbeddingGrad(_ScatterVsJax):
    name = "embedding_grad"
    short = "jit: embedding grad"
    title = ("`jit(grad)` of an embedding lookup: table 10,000 × 64, 4,096 ids, "
             "`sum(W[ids] * G)` (float32)")
    goals = [("jax", 1.5)]
    notes = {"jax": "`jax.jit(jax.grad(f))`", "numpy": "`np.add.at`"}

    def setup(self):
        rng = np.random.default_rng(0)
        self.w = rng.standard_normal((10_000, 64)).astype(np.float32)
        self.ids = rng.integers(0, 10_000, 4096).astype(np.int32)
        self.g = rng.standard_normal((4096, 64)).astype(np.float32)

    def _run(self, lib, m, ops, sparse):
        ids = m.asarray(self.ids)
        f = lib.jit(lib.grad(lambda w, g: m.sum(w[ids] * g)))
        w, g = m.asarray(self.w), m.asarray(self.g)
        return lambda: np.asarray(block(f(w, g)))

    def numpy(self):
        def run():
            out = np.zeros_like(self.w)
            np.add.at(out, self.ids, self.g)
            return out

        return run
