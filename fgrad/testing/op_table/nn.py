"""fgrad.nn rows (references written in NumPy/SciPy from the definitions)."""

from __future__ import annotations

import math

from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
import numpy as np

import fgrad

from ._base import Arg, F32, F64, OpRow, axis_kwargs, lookup, shapes_of, unary
from .reductions import _distinct

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# fgrad.nn (references written in NumPy/SciPy from the definitions)

NN = fgrad.nn
_erf = np.vectorize(math.erf, otypes=[np.float64])


def _np_erf(x):
    return _erf(x).astype(np.asarray(x).dtype)


def _np_erfc(x):
    return (1.0 - _erf(x)).astype(np.asarray(x).dtype)


def _np_erfinv(x):
    """Inverse of erf by Newton's method (reference only)."""
    x64 = np.asarray(x, np.float64)
    y = np.zeros_like(x64)
    for _ in range(60):
        y = y - (_erf(y) - x64) / (2 / np.sqrt(np.pi) * np.exp(-y * y))
    return y.astype(np.asarray(x).dtype)


def _np_expit(x):
    return np.where(x >= 0, 1 / (1 + np.exp(-np.abs(x))), np.exp(-np.abs(x)) / (1 + np.exp(-np.abs(x))))


def _np_logsumexp(x, axis=None, keepdims=False, b=None):
    m = np.max(x, axis=axis, keepdims=True)
    m = np.where(np.isfinite(m), m, 0)
    s = np.sum(np.exp(x - m) * (1 if b is None else b), axis=axis, keepdims=True)
    out = np.log(s) + m
    return out if keepdims else np.squeeze(out, axis=axis)


_SELU_SCALE, _SELU_ALPHA = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717


def _np_sigmoid(x):
    return _np_expit(x)


def _np_softplus(x):
    return np.logaddexp(0, x)


def _np_elu(x, alpha=1.0):
    return np.where(x > 0, x, alpha * np.expm1(np.minimum(x, 0)))


def _np_gelu(x, approximate=True):
    if approximate:
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x**3)))
    return 0.5 * x * (1 + _erf(x / np.sqrt(2)).astype(x.dtype))


def _np_softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def _np_log_softmax(x, axis=-1):
    return x - _np_logsumexp(x, axis=axis, keepdims=True)


def _np_standardize(x, axis=-1):
    m = np.mean(x, axis=axis, keepdims=True)
    v = np.mean((x - m) ** 2, axis=axis, keepdims=True)
    return (x - m) / np.sqrt(v + 1e-5)


def _np_glu(x, axis=-1):
    a, b = np.split(x, 2, axis=axis)
    return a * _np_sigmoid(b)


def _nn_unary(name, ref, lo=-3.0, hi=3.0, avoid=(), fn=None, **kw):
    return unary(
        f"nn.{name}",
        fn=fn or lookup(NN, name, "nn"),
        ref=ref,
        lo=lo,
        hi=hi,
        avoid=avoid,
        covers=(f"nn.{name}",),
        **kw,
    )


def _axis_only(shapes):
    nd = len(shapes[0])
    return st.fixed_dictionaries({"axis": st.integers(-nd, nd - 1)})


_NN_TOL = {F32: (1e-6, 1e-5), F64: (1e-13, 1e-11)}

ROWS += [
    _nn_unary("relu", lambda x: np.maximum(x, 0), avoid=(0.0,)),
    _nn_unary("relu6", lambda x: np.clip(x, 0, 6), lo=-2, hi=8, avoid=(0.0, 6.0)),
    _nn_unary("sigmoid", _np_sigmoid, fwd_tol=_NN_TOL),
    _nn_unary("log_sigmoid", lambda x: -_np_softplus(-x), fwd_tol=_NN_TOL),
    _nn_unary("softplus", _np_softplus, fwd_tol=_NN_TOL),
    _nn_unary("silu", lambda x: x * _np_sigmoid(x), fwd_tol=_NN_TOL),
    _nn_unary("swish", lambda x: x * _np_sigmoid(x), fwd_tol=_NN_TOL),
    _nn_unary("gelu", _np_gelu, fwd_tol=_NN_TOL),
    _nn_unary(
        "gelu[exact]",
        lambda x: _np_gelu(x, False),
        fn=lambda x: NN.gelu(x, approximate=False),
        fwd_tol=_NN_TOL,
    ),
    _nn_unary("elu", _np_elu, avoid=(0.0,), fwd_tol=_NN_TOL),
    _nn_unary(
        "elu[alpha=0.5]",
        lambda x: _np_elu(x, 0.5),
        fn=lambda x: NN.elu(x, 0.5),
        avoid=(0.0,),
        fwd_tol=_NN_TOL,
    ),
    _nn_unary(
        "celu",
        lambda x: np.maximum(x, 0) + np.minimum(0, 0.7 * np.expm1(x / 0.7)),
        fn=lambda x: NN.celu(x, 0.7),
        avoid=(0.0,),
        fwd_tol=_NN_TOL,
    ),
    _nn_unary("selu", lambda x: _SELU_SCALE * _np_elu(x, _SELU_ALPHA), avoid=(0.0,), fwd_tol=_NN_TOL),
    _nn_unary("leaky_relu", lambda x: np.where(x >= 0, x, 0.01 * x), avoid=(0.0,)),
    _nn_unary(
        "leaky_relu[0.2]",
        lambda x: np.where(x >= 0, x, 0.2 * x),
        fn=lambda x: NN.leaky_relu(x, 0.2),
        avoid=(0.0,),
    ),
    _nn_unary("hard_tanh", lambda x: np.clip(x, -1, 1), avoid=(-1.0, 1.0)),
    _nn_unary(
        "hard_sigmoid", lambda x: np.clip(x + 3, 0, 6) / 6, lo=-5, hi=5, avoid=(-3.0, 3.0), fwd_tol=_NN_TOL
    ),
    _nn_unary(
        "hard_silu", lambda x: x * np.clip(x + 3, 0, 6) / 6, lo=-5, hi=5, avoid=(-3.0, 3.0), fwd_tol=_NN_TOL
    ),
    _nn_unary(
        "hard_swish", lambda x: x * np.clip(x + 3, 0, 6) / 6, lo=-5, hi=5, avoid=(-3.0, 3.0), fwd_tol=_NN_TOL
    ),
    _nn_unary("mish", lambda x: x * np.tanh(_np_softplus(x)), fwd_tol=_NN_TOL),
    _nn_unary("soft_sign", lambda x: x / (np.abs(x) + 1), avoid=(0.0,), fwd_tol=_NN_TOL),
    _nn_unary("tanh", np.tanh),
    OpRow(
        "nn.softmax",
        lambda x, axis: NN.softmax(x, axis=axis),
        _np_softmax,
        shapes=shapes_of(1, min_dims=1),
        kwargs=_axis_only,
        example_kwargs={"axis": -1},
        fwd_tol=_NN_TOL,
        covers=("nn.softmax",),
    ),
    OpRow(
        "nn.log_softmax",
        lambda x, axis: NN.log_softmax(x, axis=axis),
        _np_log_softmax,
        shapes=shapes_of(1, min_dims=1),
        kwargs=_axis_only,
        example_kwargs={"axis": 0},
        fwd_tol=_NN_TOL,
        covers=("nn.log_softmax",),
    ),
    OpRow(
        "nn.logsumexp",
        lambda x, **kw: NN.logsumexp(x, **kw),
        lambda x, **kw: _np_logsumexp(x, **kw),
        kwargs=axis_kwargs(),
        example_kwargs={"axis": 1, "keepdims": True},
        fwd_tol=_NN_TOL,
        covers=("nn.logsumexp",),
    ),
    OpRow(
        "nn.logsumexp[b]",
        lambda x, b: NN.logsumexp(x, b=b),
        lambda x, b: _np_logsumexp(x, b=b),
        args=(Arg(), Arg(0.2, 2.0)),
        shapes=shapes_of(2),
        fwd_tol=_NN_TOL,
        covers=("nn.logsumexp",),
    ),
    OpRow(
        "nn.standardize",
        lambda x, axis: NN.standardize(x, axis=axis),
        _np_standardize,
        args=(_distinct,),
        shapes=shapes_of(1, min_dims=1, min_side=2),
        kwargs=_axis_only,
        example_kwargs={"axis": -1},
        fwd_tol={F32: (1e-5, 1e-4), F64: (1e-12, 1e-10)},
        covers=("nn.standardize",),
    ),
    OpRow(
        "nn.glu",
        lambda x, axis: NN.glu(x, axis=axis),
        _np_glu,
        shapes=hnp.array_shapes(min_dims=1, max_dims=3, max_side=3).map(lambda s: (s[:-1] + (2 * s[-1],),)),
        kwargs=lambda shapes: st.just({"axis": -1}),
        example_shapes=((3, 4),),
        example_kwargs={"axis": -1},
        fwd_tol=_NN_TOL,
        covers=("nn.glu",),
    ),
    OpRow(
        "nn.one_hot",
        lambda i, num_classes: NN.one_hot(i, num_classes),
        lambda i, num_classes: np.eye(num_classes)[i],
        args=(Arg(0, 4, kind="int", dtype=np.int64),),
        kwargs=lambda shapes: st.just({"num_classes": 5}),
        example_kwargs={"num_classes": 5},
        grad="no",
        covers=("nn.one_hot",),
    ),
    _nn_unary("identity", lambda x: x),
    _nn_unary("squareplus", lambda x: (x + np.sqrt(x * x + 4)) / 2, fwd_tol=_NN_TOL),
    _nn_unary(
        "sparse_plus",
        lambda x: np.where(x <= -1, 0.0, np.where(x >= 1, x, (x + 1) ** 2 / 4)).astype(x.dtype),
        avoid=(-1.0, 1.0),
        fwd_tol=_NN_TOL,
    ),
    _nn_unary(
        "sparse_sigmoid", lambda x: np.clip((x + 1) / 2, 0, 1), avoid=(-1.0, 1.0), fwd_tol=_NN_TOL
    ),
    _nn_unary(
        "log1mexp",
        lambda x: np.where(x < math.log(2), np.log(-np.expm1(-x)), np.log1p(-np.exp(-x))).astype(x.dtype),
        lo=0.05,
        hi=4.0,
        avoid=(math.log(2),),
        fwd_tol=_NN_TOL,
    ),
    OpRow(
        "nn.logmeanexp",
        lambda x, **kw: NN.logmeanexp(x, **kw),
        lambda x, axis=None, keepdims=False: _np_logsumexp(x, axis=axis, keepdims=keepdims)
        - np.log(np.prod(np.shape(x)) / np.prod(np.shape(np.sum(x, axis=axis)))).astype(x.dtype),
        kwargs=axis_kwargs(),
        example_kwargs={"axis": 1, "keepdims": True},
        fwd_tol=_NN_TOL,
        covers=("nn.logmeanexp",),
    ),
]
