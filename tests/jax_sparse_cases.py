"""Cases shared by ``tests/test_jax_sparse.py`` and its recorder (``python
tests/jax_sparse_cases.py`` writes ``tests/stored/jax_sparse.json`` from live JAX 0.10.2 with
x64 enabled).

Each case is one program written once against a namespace ``ns`` holding ``jx`` (``jax`` or
``fgrad``), ``jnp`` (``jax.numpy`` or ``fgrad.numpy``) and ``sparse``
(``jax.experimental.sparse`` or ``fgrad.experimental.sparse``); it returns a dict of
results, BCOO/BCSR arrays as their buffers (``data``, ``indices``, ``indptr``) and shape.
"""

from __future__ import annotations

import json
import pathlib
from types import SimpleNamespace
from typing import Any, Callable

import numpy as np

STORED = pathlib.Path(__file__).parent / "stored" / "jax_sparse.json"

M = np.array([[0.0, 1.0, 0.0, 2.0], [3.0, 0.0, 0.0, 0.0], [0.0, 0.0, 4.0, 0.0]])
B3 = np.array([[[0.0, 1.5, 0.0], [2.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, -1.0, 3.0]]])
X = np.linspace(-1.0, 2.0, 12).reshape(4, 3)
V = np.array([1.0, -2.0, 0.5, 3.0])

CASES: dict[str, Callable[[Any], dict]] = {}


def case(fn: Callable[[Any], dict]) -> Callable[[Any], dict]:
    CASES[fn.__name__] = fn
    return fn


def as_plain(value: Any) -> Any:
    """Results as JSON-able values: arrays as lists (with their dtype), sparse arrays as
    their buffers."""
    if hasattr(value, "indptr"):
        return {
            "format": "bcsr",
            "shape": list(value.shape),
            "data": as_plain(value.data),
            "indices": as_plain(value.indices),
            "indptr": as_plain(value.indptr),
        }
    if hasattr(value, "indices") and hasattr(value, "n_batch"):
        return {
            "format": "bcoo",
            "shape": list(value.shape),
            "n_batch": value.n_batch,
            "n_dense": value.n_dense,
            "data": as_plain(value.data),
            "indices": as_plain(value.indices),
        }
    if isinstance(value, dict):
        return {k: as_plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_plain(v) for v in value]
    if isinstance(value, (str, int, bool)) or value is None:
        return value
    arr = np.asarray(value)
    return {"dtype": arr.dtype.name, "shape": list(arr.shape), "values": arr.tolist()}


# ---- conversions ----------------------------------------------------------------------------


@case
def fromdense_layouts(ns):
    m, b = ns.jnp.asarray(M), ns.jnp.asarray(B3)
    out = {
        "plain": ns.sparse.BCOO.fromdense(m),
        "nse6": ns.sparse.BCOO.fromdense(m, nse=6),
        "batch1": ns.sparse.BCOO.fromdense(m, n_batch=1),
        "dense1": ns.sparse.BCOO.fromdense(m, n_dense=1),
        "b3_batch1": ns.sparse.BCOO.fromdense(b, n_batch=1),
        "b3_batch1_dense1": ns.sparse.BCOO.fromdense(b, n_batch=1, n_dense=1),
        "b3_batch2": ns.sparse.BCOO.fromdense(b, n_batch=2),
        "zeros": ns.sparse.BCOO.fromdense(ns.jnp.zeros((2, 3))),
        "fn": ns.sparse.bcoo_fromdense(m, nse=5, index_dtype=np.int64),
    }
    out["roundtrip"] = [ns.sparse.todense(v) for v in out.values()]
    return out


@case
def todense_duplicates_and_padding(ns):
    s = ns.sparse.BCOO(
        (ns.jnp.asarray([1.0, 2.0, 5.0, 7.0]), ns.jnp.asarray(np.array([[0, 1], [2, 0], [0, 1], [3, 4]]))),
        shape=(3, 4),
    )
    return {"dense": s.todense(), "fn": ns.sparse.bcoo_todense(s), "T": s.T.todense()}


@case
def extract(ns):
    s = ns.sparse.BCOO(
        (ns.jnp.asarray([1.0, 2.0, 3.0, 0.0]), ns.jnp.asarray(np.array([[1, 1], [0, 0], [1, 1], [2, 2]]))),
        shape=(2, 2),
    )
    a = ns.jnp.asarray(np.array([[10.0, 20.0], [30.0, 40.0]]))
    sb = ns.sparse.BCOO.fromdense(ns.jnp.asarray(B3), n_batch=1)
    return {
        "default": ns.sparse.bcoo_extract(s, a),
        "unique": ns.sparse.bcoo_extract(s, a, assume_unique=True),
        "batched": ns.sparse.bcoo_extract(sb, ns.jnp.asarray(B3) * 10 + 1),
    }


# ---- layout ---------------------------------------------------------------------------------


@case
def sum_duplicates_and_sort(ns):
    s = ns.sparse.BCOO(
        (
            ns.jnp.asarray([1.0, 2.0, 3.0, 4.0, 9.0]),
            ns.jnp.asarray(np.array([[1, 1], [0, 0], [1, 1], [0, 1], [2, 2]])),
        ),
        shape=(2, 2),
    )
    sb = ns.sparse.BCOO(
        (
            ns.jnp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
            ns.jnp.asarray(np.array([[[1], [0], [1]], [[2], [2], [0]]])),
        ),
        shape=(2, 3),
    )
    return {
        "sum_duplicates": ns.sparse.bcoo_sum_duplicates(s),
        "method": s.sum_duplicates(nse=4),
        "method_zeros": ns.sparse.BCOO(
            (
                ns.jnp.asarray([0.0, 2.0, 1.0, 0.0]),
                ns.jnp.asarray(np.array([[0, 0], [1, 1], [1, 1], [0, 1]])),
            ),
            shape=(2, 2),
        ).sum_duplicates(),
        "method_keep_zeros": ns.sparse.BCOO(
            (
                ns.jnp.asarray([0.0, 2.0, 1.0, 0.0]),
                ns.jnp.asarray(np.array([[0, 0], [1, 1], [1, 1], [0, 1]])),
            ),
            shape=(2, 2),
        ).sum_duplicates(remove_zeros=False),
        "sorted": ns.sparse.bcoo_sort_indices(s),
        "batched_sum_duplicates": sb.sum_duplicates(),
        "batched_sorted": sb.sort_indices(),
    }


@case
def update_layout(ns):
    m, b = ns.jnp.asarray(M), ns.jnp.asarray(B3)
    s = ns.sparse.BCOO.fromdense(m)
    out = {
        "to_dense1": ns.sparse.bcoo_update_layout(s, n_dense=1, on_inefficient=None),
        "to_batch1": ns.sparse.bcoo_update_layout(s, n_batch=1, on_inefficient=None),
        "batch1_to_0": ns.sparse.bcoo_update_layout(ns.sparse.BCOO.fromdense(m, n_batch=1), n_batch=0),
        "dense1_to_0": ns.sparse.bcoo_update_layout(ns.sparse.BCOO.fromdense(m, n_dense=1), n_dense=0),
        "b3": ns.sparse.bcoo_update_layout(ns.sparse.BCOO.fromdense(b, n_batch=2), n_batch=0),
        "b3_method": ns.sparse.BCOO.fromdense(b).update_layout(n_batch=1, n_dense=1, on_inefficient=None),
    }
    try:
        ns.sparse.bcoo_update_layout(s, n_batch=1)
        out["error"] = None
    except ns.sparse.SparseEfficiencyError as e:
        out["error"] = type(e).__name__
    return out


# ---- shape ----------------------------------------------------------------------------------


@case
def transpose_reshape_sum(ns):
    m, b = ns.jnp.asarray(M), ns.jnp.asarray(B3)
    s = ns.sparse.BCOO.fromdense(m)
    sb = ns.sparse.BCOO.fromdense(b, n_batch=1)
    return {
        "T": s.T,
        "transpose_fn": ns.sparse.bcoo_transpose(sb, permutation=(0, 2, 1)),
        "reshape": s.reshape(4, 3),
        "reshape_fn": ns.sparse.bcoo_reshape(s, new_sizes=(2, 6)),
        "reshape_1d": s.reshape(12),
        "sum0": s.sum(0),
        "sum1": s.sum(1),
        "sum_all": s.sum(),
        "reduce_batch": ns.sparse.bcoo_reduce_sum(sb, axes=(0,)),
        "reduce_sparse": ns.sparse.bcoo_reduce_sum(sb, axes=(2,)),
        "reduce_dense_layout": ns.sparse.bcoo_reduce_sum(ns.sparse.BCOO.fromdense(m, n_dense=1), axes=(1,)),
        "dense_of": [
            ns.sparse.todense(x)
            for x in (
                s.T,
                s.reshape(4, 3),
                s.sum(0),
                ns.sparse.bcoo_reduce_sum(sb, axes=(0,)),
                ns.sparse.bcoo_reduce_sum(sb, axes=(2,)),
            )
        ],
    }


@case
def slicing_and_concatenation(ns):
    m = ns.jnp.asarray(M)
    s = ns.sparse.BCOO.fromdense(m)
    sb = ns.sparse.BCOO.fromdense(m, n_batch=1)
    sd = ns.sparse.BCOO.fromdense(ns.jnp.asarray(B3), n_batch=1, n_dense=1)
    return {
        "slice": ns.sparse.bcoo_slice(s, start_indices=(1, 0), limit_indices=(3, 4)),
        "strided": ns.sparse.bcoo_slice(s, start_indices=(0, 1), limit_indices=(3, 4), strides=(1, 2)),
        "row": s[1],
        "last_row": s[-1],
        "cols": s[:, 1:3],
        "every_other": s[::2, ::2],
        "ellipsis": s[..., 1:3],
        "int_inner_dense": ns.sparse.todense(s[:, 2]),
        "batch_rows": sb[1:],
        "batch_row": sb[1],
        "dense_slice": ns.sparse.todense(sd[:, 1, 1:]),  # JAX: fewer nse after an inner integer
        "dynamic": ns.sparse.bcoo_dynamic_slice(s, (1, 1), (2, 2)),
        "dynamic_clamped": ns.jx.jit(lambda a, i: ns.sparse.bcoo_dynamic_slice(a, (i, 0), (2, 3)))(s, 5),
        "concat_sparse": ns.sparse.bcoo_concatenate([s, s * 2], dimension=0),
        "concat_batch_sparse": ns.sparse.bcoo_concatenate([sb, sb], dimension=1),
        "concat_batch": ns.sparse.bcoo_concatenate([sb, sb], dimension=0),
        "grad": ns.jx.grad(
            lambda d: ns.jnp.sum(ns.sparse.BCOO((d, s.indices), shape=s.shape)[1:, ::2].todense() ** 2)
        )(s.data),
    }


@case
def broadcast_in_dim(ns):
    m = ns.jnp.asarray(M)
    s, sd = ns.sparse.BCOO.fromdense(m), ns.sparse.BCOO.fromdense(m, n_dense=1)
    bid = ns.sparse.bcoo_broadcast_in_dim
    return {
        "new_batch": bid(s, shape=(2, 3, 4), broadcast_dimensions=(1, 2)),
        "new_sparse": bid(s, shape=(3, 1, 4), broadcast_dimensions=(0, 2)),
        "new_dense": bid(sd, shape=(3, 4, 2), broadcast_dimensions=(0, 1)),
        "batched": bid(ns.sparse.BCOO.fromdense(m, n_batch=1), shape=(2, 3, 4), broadcast_dimensions=(1, 2)),
        "sparsify": ns.sparse.sparsify(lambda x: ns.jnp.broadcast_to(x, (2, 3, 4)) * 2.0)(s),
    }


# ---- products -------------------------------------------------------------------------------


@case
def matmul(ns):
    m, x, v = ns.jnp.asarray(M), ns.jnp.asarray(X), ns.jnp.asarray(V)
    s = ns.sparse.BCOO.fromdense(m)
    sd = ns.sparse.BCOO.fromdense(m, n_dense=1)
    sb = ns.sparse.BCOO.fromdense(m, n_batch=1)
    return {
        "matvec": s @ v,
        "matmat": s @ x,
        "vecmat": ns.jnp.asarray([1.0, 2.0, -1.0]) @ s,
        "dense_at_sparse": x.T @ s.T,
        "dense_layout": ns.jnp.asarray([1.0, 2.0, -1.0]) @ sd,
        "batch_layout": sb @ x,
        "sp_sp": ns.sparse.todense(s @ s.T),
        "sp_sp_vec": ns.sparse.todense(s.T @ s),
    }


@case
def dot_general_dimension_numbers(ns):
    b = ns.jnp.asarray(B3)
    sb = ns.sparse.BCOO.fromdense(b, n_batch=1)
    s0 = ns.sparse.BCOO.fromdense(b)
    r = ns.jnp.asarray(np.arange(2 * 3 * 2, dtype=float).reshape(2, 3, 2) - 5)
    r2 = ns.jnp.asarray(np.arange(2 * 4, dtype=float).reshape(2, 4) / 3)
    dg = ns.sparse.bcoo_dot_general
    return {
        "batched": dg(sb, r, dimension_numbers=(((2,), (1,)), ((0,), (0,)))),
        "batch_contract": dg(sb, r2, dimension_numbers=(((0,), (0,)), ((), ()))),
        "unbatched_sparse_batch": dg(s0, r, dimension_numbers=(((2,), (1,)), ((), ()))),
        "rhs_sparse": dg(r, sb, dimension_numbers=(((1,), (2,)), ((0,), (0,)))),
        "preferred": dg(
            sb, r, dimension_numbers=(((2,), (1,)), ((0,), (0,))), preferred_element_type=np.float32
        ),
    }


@case
def dot_general_sampled(ns):
    a = ns.jnp.asarray(X.T)  # (3, 4)
    bmat = ns.jnp.asarray(X)  # (4, 3)
    s = ns.sparse.BCOO.fromdense(ns.jnp.asarray(np.eye(3) + np.eye(3, k=1)))
    sampled = ns.sparse.bcoo_dot_general_sampled(
        a, bmat, s.indices, dimension_numbers=(((1,), (0,)), ((), ()))
    )
    g = ns.jx.grad(
        lambda a, b: (
            ns.sparse.bcoo_dot_general_sampled(a, b, s.indices, dimension_numbers=(((1,), (0,)), ((), ())))
            * ns.jnp.arange(1.0, 6.0)
        ).sum(),
        argnums=(0, 1),
    )(a, bmat)
    return {"sampled": sampled, "grads": g}


@case
def elementwise(ns):
    m = ns.jnp.asarray(M)
    s = ns.sparse.BCOO.fromdense(m)
    row = ns.jnp.asarray([1.0, 10.0, 100.0, 1000.0])
    return {
        "mul_dense": s * m,
        "rmul_dense": m * s,
        "mul_row": s * row,
        "mul_scalar": s * 2,
        "rmul": 3 * s,
        "div": s / 4,
        "pow": s**2,
        "neg": -s,
        "abs": abs(-s),
        "mul_sparse": s * s,
        "fn_dense": ns.sparse.bcoo_multiply_dense(s, row),
        "fn_sparse": ns.sparse.bcoo_multiply_sparse(s, s),
        "add_sparse": s + s,
        "sub_sparse": s - s,
        "add_dense": s + m,
        "radd_dense": m + s,
        "astype": s.astype(np.float32),
    }


@case
def sparsify_programs(ns):
    m, x = ns.jnp.asarray(M), ns.jnp.asarray(X)
    s = ns.sparse.BCOO.fromdense(m)

    def layer(w, h):
        return ns.jnp.tanh(w @ h) + ns.jnp.expand_dims(ns.jnp.sum(w, axis=1), 1)

    def elementwise(w):
        return ns.jnp.sin(w) * 2.0 - ns.jnp.abs(w) / 3.0

    return {
        "layer": ns.sparse.sparsify(layer)(s, x),
        "elementwise": ns.sparse.sparsify(elementwise)(s),
        "jit_layer": ns.jx.jit(ns.sparse.sparsify(layer))(s, x),
        "todense_in": ns.sparse.sparsify(lambda w: ns.sparse.todense(w) + 1.0)(s),
    }


@case
def sparsify_structural(ns):
    s = ns.sparse.BCOO.fromdense(ns.jnp.asarray(M))

    def f(x):
        return (
            ns.jnp.flip(x, 0),
            ns.jnp.concatenate([x, x], 1),
            x[1:],
            x[:, 2],
            x[None],
            x[::-1],
            x[2:0:-2, ::-3],
            ns.jnp.expand_dims(ns.jnp.sum(x, 1), 1) * 2.0,
            x.T[1:3],
        )

    return {
        "dense": [ns.sparse.todense(r) for r in ns.sparse.sparsify(f)(s)],
        "rev": ns.sparse.bcoo_rev(s, dimensions=(0, 1)),
    }


# ---- derivatives ----------------------------------------------------------------------------


@case
def gradients(ns):
    m, x, v = ns.jnp.asarray(M), ns.jnp.asarray(X), ns.jnp.asarray(V)
    s = ns.sparse.BCOO.fromdense(m)
    sb = ns.sparse.BCOO.fromdense(ns.jnp.asarray(B3), n_batch=1)
    w = ns.jnp.asarray(np.cos(np.arange(6.0)).reshape(3, 2))

    def loss(data, x):
        a = ns.sparse.BCOO((data, s.indices), shape=s.shape)
        return ns.jnp.sum(ns.jnp.sin(a @ x) * w[:, :1])

    def loss_batched(data, y):
        a = ns.sparse.BCOO((data, sb.indices), shape=sb.shape)
        return ns.jnp.sum((a @ y) ** 2)

    return {
        "dot_data_and_dense": ns.jx.grad(loss, argnums=(0, 1))(s.data, x),
        "batched": ns.jx.grad(loss_batched, argnums=(0, 1))(
            sb.data, ns.jnp.asarray(np.ones((2, 3, 2)) * 0.5)
        ),
        "todense": ns.jx.grad(
            lambda d: ns.jnp.sum(ns.sparse.BCOO((d, s.indices), shape=s.shape).todense() ** 3)
        )(s.data),
        "fromdense": ns.jx.grad(lambda a: ns.jnp.sum(ns.sparse.BCOO.fromdense(a, nse=5).data ** 2))(m),
        "rmatmul": ns.jx.grad(lambda y: ns.jnp.sum((y @ s) ** 2))(ns.jnp.asarray([1.0, 2.0, -1.0])),
        "sparse_grad": ns.sparse.grad(lambda a: ns.jnp.sum((a @ v) ** 2))(s),
        "sparse_value_and_grad": ns.sparse.value_and_grad(lambda a, y: ns.jnp.sum(a @ y), argnums=(0, 1))(
            s, v
        ),
        "jacfwd": ns.sparse.jacfwd(lambda a: a @ v)(s),
        "jacrev": ns.sparse.jacrev(lambda a: a @ v)(s),
        "jvp": ns.jx.jvp(
            lambda d: ns.sparse.BCOO((d, s.indices), shape=s.shape) @ v, (s.data,), (ns.jnp.ones(4),)
        ),
    }


@case
def transforms(ns):
    m, x = ns.jnp.asarray(M), ns.jnp.asarray(X)
    s = ns.sparse.BCOO.fromdense(m)
    sb = ns.sparse.BCOO.fromdense(ns.jnp.asarray(B3), n_batch=1)
    return {
        "jit_matmul": ns.jx.jit(lambda a, y: a @ y)(s, x),
        "jit_returns_bcoo": ns.jx.jit(lambda a: a * 2.0)(s),
        "jit_fromdense": ns.jx.jit(lambda a: ns.sparse.BCOO.fromdense(a, nse=5))(m),
        "vmap_dense_operand": ns.jx.vmap(lambda y: s @ y)(ns.jnp.asarray(np.stack([V, -V, 2 * V]))),
        "vmap_over_bcoo": ns.jx.vmap(lambda a: a.todense())(sb),
        "vmap_over_bcoo_matvec": ns.jx.vmap(lambda a: a @ ns.jnp.ones(3))(sb),
        "vmap_fromdense": ns.jx.vmap(lambda a: ns.sparse.BCOO.fromdense(a, nse=2))(m),
        "vmap_data": ns.jx.vmap(lambda d: ns.sparse.BCOO((d, s.indices), shape=s.shape).todense())(
            ns.jnp.asarray(np.arange(8.0).reshape(2, 4))
        ),
        "leaves": [np.asarray(leaf) for leaf in ns.jx.tree_util.tree_leaves(s)],
    }


# ---- other formats and constructors ---------------------------------------------------------


@case
def bcsr(ns):
    m = ns.jnp.asarray(M)
    b = ns.sparse.BCSR.fromdense(m)
    bb = ns.sparse.BCSR.fromdense(ns.jnp.asarray(B3), n_batch=1)
    return {
        "bcsr": b,
        "nse6": ns.sparse.BCSR.fromdense(m, nse=6),
        "batched": bb,
        "dense": b.todense(),
        "batched_dense": bb.todense(),
        "matvec": b @ ns.jnp.asarray(V),
        "matmat": b @ ns.jnp.asarray(X),
        "to_bcoo": b.to_bcoo(),
        "from_bcoo": ns.sparse.BCSR.from_bcoo(ns.sparse.BCOO.fromdense(m)),
        "fn": ns.sparse.bcsr_fromdense(m),
        "fn_dense": ns.sparse.bcsr_todense(b),
        "extract": ns.sparse.bcsr_extract(
            ns.sparse.BCSR.fromdense(m, nse=6).indices, ns.sparse.BCSR.fromdense(m, nse=6).indptr, m + 10.0
        ),
        "sum_duplicates": ns.sparse.bcsr_sum_duplicates(
            ns.sparse.BCSR(
                (ns.jnp.asarray([1.0, 2.0, 0.5]), ns.jnp.asarray([0, 0, 1]), ns.jnp.asarray([0, 2, 3])),
                shape=(2, 2),
            )
        ),
        "dot_general": ns.sparse.bcsr_dot_general(
            b, ns.jnp.asarray(V), dimension_numbers=(((1,), (0,)), ((), ()))
        ),
    }


@case
def legacy_formats(ns):
    m = ns.jnp.asarray(M + 5.0 * np.eye(3, 4))
    c, r, k = (
        ns.sparse.COO.fromdense(m, nse=7),
        ns.sparse.CSR.fromdense(m, nse=7),
        ns.sparse.CSC.fromdense(m),
    )
    v, x = ns.jnp.asarray(V), ns.jnp.asarray(X)
    buffers = {
        "coo": [c.data, c.row, c.col],
        "csr": [r.data, r.indices, r.indptr],
        "csc": [k.data, k.indices, k.indptr],
    }
    return {
        "buffers": buffers,
        "dense": [c.todense(), r.todense(), k.todense(), ns.sparse.coo_todense(c), ns.sparse.csr_todense(r)],
        "products": [
            c @ v,
            r @ x,
            k @ v,
            c.T @ ns.jnp.ones(3),
            r.T @ ns.jnp.ones(3),
            k.T @ ns.jnp.ones(3),
            ns.sparse.coo_matvec(c, ns.jnp.ones(3), transpose=True),
            ns.sparse.coo_matmat(c, x),
            ns.sparse.csr_matvec(r, v),
            ns.sparse.csr_matmat(r, ns.jnp.ones((3, 2)), transpose=True),
        ],
        "fn": [ns.sparse.coo_fromdense(m).row, ns.sparse.csr_fromdense(m, nse=6).indptr],
        "grad": ns.jx.grad(
            lambda d: ns.jnp.sum((ns.sparse.CSR((d, r.indices, r.indptr), shape=r.shape) @ x) ** 2)
        )(r.data),
        "jit": ns.jx.jit(lambda a, y: a @ y)(c, v),
    }


def _from_scipy(ns):
    import scipy.sparse

    return ns.sparse.BCOO.from_scipy_sparse(
        scipy.sparse.random(5, 4, density=0.4, random_state=0, format="csc")
    )


@case
def constructors(ns):
    key = ns.jx.random.PRNGKey(0)
    return {
        "eye": ns.sparse.eye(3),
        "eye_k": ns.sparse.eye(3, 4, k=1),
        "eye_neg": ns.sparse.eye(4, k=-2),
        "eye_f32": ns.sparse.eye(2, dtype=np.float32),
        "empty": ns.sparse.empty((2, 3)),
        "random": ns.sparse.random_bcoo(key, (3, 4), nse=0.5),
        "random_batched": ns.sparse.random_bcoo(
            ns.jx.random.PRNGKey(3), (2, 5, 3), nse=2, n_batch=1, n_dense=1
        ),
        "random_sorted": ns.sparse.random_bcoo(ns.jx.random.PRNGKey(7), (6, 6), nse=5, sorted_indices=True),
        "from_scipy": _from_scipy(ns),
        "random_normal": ns.sparse.random_bcoo(key, (4, 4), nse=3, generator=ns.jx.random.normal),
    }


def namespace(which: str) -> SimpleNamespace:
    if which == "jax":
        import jax

        jax.config.update("jax_enable_x64", True)
        import jax.numpy as jnp
        from jax.experimental import sparse

        return SimpleNamespace(jx=jax, jnp=jnp, sparse=sparse)
    import fgrad
    import fgrad.numpy as fnp
    from fgrad.experimental import sparse

    return SimpleNamespace(jx=fgrad, jnp=fnp, sparse=sparse)


def run(ns: SimpleNamespace, name: str) -> dict:
    return as_plain(CASES[name](ns))


if __name__ == "__main__":
    jax_ns = namespace("jax")
    STORED.write_text(json.dumps({name: run(jax_ns, name) for name in CASES}, indent=None))
    print(f"wrote {len(CASES)} cases to {STORED}")
