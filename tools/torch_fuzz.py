"""Differential fuzzing of the imperative shim ``fgrad.torch`` against live PyTorch: the same
seeded random inputs through many public ``torch`` functions, ``Tensor`` methods and
``torch.nn.functional`` functions on both, compared on result dtype, shape and value
(tolerance by dtype), on the exception type where PyTorch raises, on ``requires_grad`` of
the results, on the gradients of a random-weighted sum of the results (first order for
every case, second order for those marked), and, for in-place variants and views, on the
returned object, the version counter and whether a later write to the input shows in the
result (aliasing).

Usage::

    python tools/torch_fuzz.py                      # every case, 4 draws each
    python tools/torch_fuzz.py --only sin,gather --draws 30 --seed 3
    python tools/torch_fuzz.py --verbose            # one line per difference too
    python tools/torch_fuzz.py --show acosh:30271   # the inputs of one reported draw

The summary prints the differences grouped by case and by what differs; the exit status is 1
when any was found. Needs PyTorch installed. See docs/shim-conventions.md ("Differential
fuzzing against PyTorch").
"""

from __future__ import annotations

import argparse
import collections
import pathlib
import sys
import warnings
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))  # this checkout's fgrad

FLOATS = ("float32", "float64")
REALS = FLOATS + ("int64", "int32", "bool")
NUMS = REALS + ("complex64",)
INEXACT = FLOATS + ("complex64",)
SHAPES = [(), (0,), (1,), (3,), (2, 3), (3, 1), (2, 0), (2, 3, 2)]
EDGES = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.0]


# ---------------------------------------------------------------- drawing inputs

def draw_values(rng, dtype: str, shape, edges: bool = True, positive: bool = False) -> np.ndarray:
    """Host values of ``dtype``: normal values, some rounded to halves (ties), some replaced
    by edge values (signed zeros, infinities, NaN) when ``edges``."""
    if dtype == "bool":
        return np.asarray(rng.integers(0, 2, shape).astype(bool))
    if dtype.startswith("int"):
        return np.asarray(rng.integers(-5, 6, shape).astype(dtype))
    x = rng.standard_normal(shape) * 2
    if rng.random() < 0.3:
        x = np.round(x * 2) / 2  # ties
    if positive:
        x = np.abs(x) + 0.1
    if edges and x.size and rng.random() < 0.3:
        mask = rng.random(shape) < 0.3
        x = np.where(mask, rng.choice(EDGES, shape), x)
    if dtype.startswith("complex"):
        y = rng.standard_normal(shape)
        return np.asarray((x + 1j * y).astype(dtype))
    return np.asarray(x, dtype=dtype)


def _pick(rng, seq):
    return seq[int(rng.integers(len(seq)))]


def _bcast_partner(rng, shape):
    """A shape that broadcasts with ``shape`` (leading dims dropped, some set to 1), or now
    and then one that does not."""
    if rng.random() < 0.08 and shape and shape[-1] > 1:
        return tuple(shape[:-1]) + (shape[-1] + 1,)
    s = list(shape[int(rng.integers(0, len(shape) + 1)):]) if shape else []
    s = [1 if rng.random() < 0.3 else d for d in s]
    if rng.random() < 0.15:
        s = [1] + s
    return tuple(s)


def _dim(rng, ndim: int, allow_none: bool = True):
    """A dim argument: None, an int in range (negative too), rarely out of range."""
    if allow_none and rng.random() < 0.25:
        return None
    if rng.random() < 0.05:
        return ndim + 1
    return int(rng.integers(-max(ndim, 1), max(ndim, 1)))


@dataclass
class Case:
    """One fuzzed call: ``fn(T, *args, **kwargs)`` with ``T`` torch or fgrad.torch; ``make``
    draws ``(args, kwargs)`` (numpy arrays become tensors, lists of arrays lists of
    tensors); ``inplace`` names the in-place method run as ``x.clone().<inplace>(*rest)``, or
    is ``f(y, *rest, **kwargs)`` calling it on ``y`` where its arguments differ."""
    name: str
    fn: Callable
    make: Callable
    grad: bool = True
    second: bool = False
    inplace: str | Callable | None = None
    tol: float = 1.0
    alias: bool = False
    extra: dict = field(default_factory=dict)


CASES: list[Case] = []


def case(name, fn, make, **kw):
    CASES.append(Case(name, fn, make, **kw))


def unary(dtypes=NUMS, positive=False, shapes=SHAPES):
    def make(rng):
        return [draw_values(rng, _pick(rng, dtypes), _pick(rng, shapes), positive=positive)], {}
    return make


def binary(dtypes=NUMS, scalars=True, dtypes2=None):
    def make(rng):
        shape = _pick(rng, SHAPES)
        a = draw_values(rng, _pick(rng, dtypes), shape)
        r = rng.random()
        if scalars and r < 0.12:
            b = _pick(rng, [float(np.round(rng.standard_normal() * 3, 2)), int(rng.integers(-3, 4)), True,
                            0.0, -0.0, float("inf")])
        else:
            b = draw_values(rng, _pick(rng, dtypes2 or dtypes), _bcast_partner(rng, shape))
        return [a, b], {}
    return make


def reduction(dtypes=NUMS, keepdim=True, dtype_kw=False, need_dim=False, multi=True):
    def make(rng):
        shape = _pick(rng, SHAPES)
        x = draw_values(rng, _pick(rng, dtypes), shape)
        kw = {}
        d = _dim(rng, len(shape), allow_none=not need_dim)
        if d is not None:
            if multi and rng.random() < 0.2 and len(shape) >= 2:
                d = (0, -1)
            kw["dim"] = d
            if keepdim and rng.random() < 0.5:
                kw["keepdim"] = True
        if dtype_kw and rng.random() < 0.3:
            kw["dtype"] = _pick(rng, ["float64", "float32", "int64"])
        return [x], kw
    return make


def _dt(T, kw):
    """kwargs with a ``dtype`` name replaced by the module's dtype object."""
    if "dtype" in kw and isinstance(kw["dtype"], str):
        kw = dict(kw, dtype=getattr(T, kw["dtype"]))
    return kw


# ---------------------------------------------------------------- the cases

UNARY_FUNCS = ["abs", "neg", "sign", "sgn", "floor", "ceil", "round", "trunc", "frac", "exp", "exp2", "expm1",
               "log", "log1p", "log2", "log10", "sqrt", "rsqrt", "square", "reciprocal", "sin", "cos", "tan",
               "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "sigmoid", "erf",
               "erfc", "erfinv", "lgamma", "digamma", "i0", "sinc", "deg2rad", "rad2deg", "isfinite", "isnan",
               "isinf", "isposinf", "isneginf", "signbit", "logical_not", "bitwise_not", "nan_to_num",
               "angle", "conj_physical", "positive", "logit", "relu", "expit_", "fix", "absolute"]
INPLACE_UNARY = {"abs", "neg", "floor", "ceil", "round", "trunc", "frac", "exp", "expm1", "log", "log1p",
                 "sqrt", "rsqrt", "reciprocal", "sin", "cos", "tan", "sinh", "tanh", "sigmoid", "erf",
                 "lgamma", "digamma", "sign", "square", "nan_to_num", "logit", "relu", "i0", "sinc"}
NO_SECOND = {"abs", "neg", "sign", "sgn", "floor", "ceil", "round", "trunc", "frac", "isfinite", "isnan",
             "isinf", "isposinf", "isneginf", "signbit", "logical_not", "bitwise_not", "relu", "fix",
             "absolute", "positive", "deg2rad", "rad2deg", "conj_physical", "angle"}
for _n in UNARY_FUNCS:
    _t = "special.expit" if _n == "expit_" else _n
    case(_n, (lambda t: lambda T, x: _attr(T, t)(x))(_t), unary(),
         second=_n not in NO_SECOND, inplace=_n + "_" if _n in INPLACE_UNARY else None)

BINARY_FUNCS = ["add", "sub", "mul", "div", "true_divide", "floor_divide", "remainder", "fmod", "pow",
                "float_power", "atan2", "hypot", "maximum", "minimum", "fmax", "fmin", "eq", "ne", "lt",
                "le", "gt", "ge", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or",
                "bitwise_xor", "copysign", "xlogy", "special.xlog1py", "logaddexp", "logaddexp2",
                "nextafter", "heaviside", "ldexp", "igamma", "isclose", "rsub"]
INPLACE_BINARY = {"add", "sub", "mul", "div", "pow", "remainder", "fmod", "atan2", "hypot", "maximum",
                  "copysign", "xlogy", "logical_and", "bitwise_and", "floor_divide", "ldexp", "float_power"}
for _n in BINARY_FUNCS:
    case(_n, (lambda t: lambda T, x, y: _attr(T, t)(x, y))(_n), binary(), second=True,
         inplace=_n + "_" if _n in INPLACE_BINARY else None)

case("add_alpha", lambda T, x, y: T.add(x, y, alpha=2), binary(), inplace=lambda a, b: a.add_(b, alpha=2))
case("sub_alpha", lambda T, x, y: T.sub(x, y, alpha=-0.5), binary(FLOATS),
     inplace=lambda a, b: a.sub_(b, alpha=-0.5))
case("div_floor", lambda T, x, y: T.div(x, y, rounding_mode="floor"), binary(REALS),
     inplace=lambda a, b: a.div_(b, rounding_mode="floor"))
case("div_trunc", lambda T, x, y: T.div(x, y, rounding_mode="trunc"), binary(REALS))
case("op_rsub_scalar", lambda T, x: 2.5 - x, unary())
case("op_rpow_scalar", lambda T, x: 2 ** x, unary(), second=True)
case("op_rtruediv_int", lambda T, x: 3 / x, unary(), second=True)
case("op_matmul", lambda T, x, y: x @ y, lambda rng: _matmul_args(rng), second=True, tol=4)
case("op_getitem_bool", lambda T, x: x[x > 0], unary(REALS))
case("lerp", lambda T, a, b, w: T.lerp(a, b, w), lambda rng: _ternary(rng, FLOATS), second=True,
     inplace="lerp_")
case("lerp_scalar", lambda T, a, b: T.lerp(a, b, 0.3), binary(FLOATS, scalars=False), second=True)
case("addcmul", lambda T, a, b, c: T.addcmul(a, b, c, value=0.5), lambda rng: _ternary(rng, INEXACT),
     second=True, inplace=lambda a, b, c: a.addcmul_(b, c, value=0.5))
case("addcdiv", lambda T, a, b, c: T.addcdiv(a, b, c, value=-2), lambda rng: _ternary(rng, FLOATS),
     second=True)
case("where", lambda T, c, a, b: T.where(c, a, b), lambda rng: _where_args(rng))
case("where_scalar", lambda T, c, a: T.where(c, a, 0.0), lambda rng: (_where_args(rng)[0][:2], {}))
case("clamp", lambda T, x, **kw: T.clamp(x, **kw), lambda rng: _clamp_args(rng), inplace="clamp_")
case("clamp_tensor", lambda T, x, lo, hi: T.clamp(x, lo, hi), lambda rng: _ternary(rng, FLOATS))
case("clamp_min", lambda T, x: T.clamp_min(x, 0.25), unary(REALS))
case("masked_fill", lambda T, x, m: x.masked_fill(m, -1.5), lambda rng: _masked(rng),
     inplace="masked_fill_")

for _n, _kw in [("sum", dict(dtype_kw=True)), ("mean", dict(dtypes=INEXACT, dtype_kw=True)),
                ("prod", dict(dtype_kw=True, multi=False)), ("nansum", dict(dtypes=REALS)),
                ("nanmean", dict(dtypes=FLOATS)), ("amax", {}), ("amin", {}), ("any", {}), ("all", {}),
                ("var", dict(dtypes=INEXACT)), ("std", dict(dtypes=INEXACT)),
                ("logsumexp", dict(need_dim=True)),
                ("count_nonzero", dict(keepdim=False)), ("argmax", dict(dtypes=REALS, multi=False)),
                ("argmin", dict(dtypes=REALS, multi=False)), ("norm", dict(dtypes=INEXACT)),
                ("aminmax", dict(dtypes=REALS, multi=False)), ("std_mean", dict(dtypes=FLOATS)),
                ("var_mean", dict(dtypes=FLOATS))]:
    case("reduce_" + _n, (lambda t: lambda T, x, **kw: _attr(T, t)(x, **_dt(T, kw)))(_n), reduction(**_kw),
         second=_n in ("sum", "mean", "prod", "var", "std", "logsumexp", "norm"))
case("max_dim", lambda T, x, dim, keepdim: T.max(x, dim, keepdim), lambda rng: _dim_args(rng, REALS))
case("min_dim", lambda T, x, dim, keepdim: T.min(x, dim, keepdim), lambda rng: _dim_args(rng, REALS))
case("max_all", lambda T, x: T.max(x), unary(REALS))
case("median_all", lambda T, x: T.median(x), unary(REALS))
case("median_dim", lambda T, x, dim, keepdim: T.median(x, dim, keepdim), lambda rng: _dim_args(rng, REALS))
case("nanmedian_dim", lambda T, x, dim, keepdim: T.nanmedian(x, dim, keepdim),
     lambda rng: _dim_args(rng, FLOATS))
case("mode_dim", lambda T, x, dim, keepdim: T.mode(x, dim, keepdim), lambda rng: _dim_args(rng, REALS))
case("quantile", lambda T, x, dim, keepdim: T.quantile(x, 0.3, dim=dim, keepdim=keepdim),
     lambda rng: _dim_args(rng, FLOATS))
case("logcumsumexp", lambda T, x, dim, keepdim: T.logcumsumexp(x, dim), lambda rng: _dim_args(rng, INEXACT))
for _n in ["cumsum", "cumprod", "cummax", "cummin"]:
    case(_n, (lambda t: lambda T, x, dim, keepdim: _attr(T, t)(x, dim))(_n),
         lambda rng, _n=_n: _dim_args(rng, REALS if _n in ("cummax", "cummin") else NUMS),
         second=_n in ("cumsum", "cumprod"), inplace=None)
case("sort", lambda T, x, dim, keepdim: T.sort(x, dim, descending=keepdim), lambda rng: _dim_args(rng, REALS))
case("sort_stable", lambda T, x, dim, keepdim: T.sort(x, dim=dim, stable=True),
     lambda rng: _dim_args(rng, REALS))
case("argsort", lambda T, x, dim, keepdim: T.argsort(x, dim, descending=keepdim),
     lambda rng: _dim_args(rng, REALS))
case("topk", lambda T, x, dim, keepdim: T.topk(x, 2, dim, largest=keepdim), lambda rng: _dim_args(rng, REALS))
case("kthvalue", lambda T, x, dim, keepdim: T.kthvalue(x, 1, dim, keepdim), lambda rng: _dim_args(rng, REALS))
case("msort", lambda T, x: T.msort(x), unary(REALS))
case("unique", lambda T, x: T.unique(x, sorted=True, return_inverse=True, return_counts=True), unary(REALS),
     grad=False)
case("flip", lambda T, x, dim, keepdim: T.flip(x, (dim,)), lambda rng: _dim_args(rng, NUMS))
case("roll", lambda T, x, dim, keepdim: T.roll(x, 2, dim), lambda rng: _dim_args(rng, NUMS))
case("diff", lambda T, x, dim, keepdim: T.diff(x, dim=dim), lambda rng: _dim_args(rng, NUMS))
case("softmax", lambda T, x, dim, keepdim: T.softmax(x, dim), lambda rng: _dim_args(rng, FLOATS), second=True)
case("log_softmax", lambda T, x, dim, keepdim: T.nn.functional.log_softmax(x, dim),
     lambda rng: _dim_args(rng, FLOATS), second=True)
case("cumsum_", lambda T, x, dim, keepdim: x.cumsum_(dim), lambda rng: _dim_args(rng, FLOATS))

# shapes and views
case("view_t", lambda T, x: x.t(), unary(NUMS, shapes=[(), (3,), (2, 3), (3, 1)]), alias=True)
case("transpose", lambda T, x, dim, keepdim: x.transpose(dim, 0), lambda rng: _dim_args(rng, NUMS),
     alias=True)
case("permute", lambda T, x: x.permute(*reversed(range(x.dim()))), unary(), alias=True)
case("reshape", lambda T, x: x.reshape(-1), unary(), alias=True)
case("reshape_t", lambda T, x: x.t().reshape(-1), unary(NUMS, shapes=[(2, 3), (3, 1)]), alias=True)
case("view", lambda T, x: x.view(x.numel()), unary(), alias=True)
case("flatten", lambda T, x: T.flatten(x), unary(), alias=True)
case("unsqueeze", lambda T, x, dim, keepdim: x.unsqueeze(dim), lambda rng: _dim_args(rng, NUMS), alias=True)
case("squeeze", lambda T, x: x.squeeze(), unary(), alias=True)
case("squeeze_dim", lambda T, x, dim, keepdim: x.squeeze(dim), lambda rng: _dim_args(rng, NUMS), alias=True)
case("expand", lambda T, x: x.expand(2, *x.shape), unary(), alias=True)
case("narrow", lambda T, x, dim, keepdim: x.narrow(dim, 0, 1), lambda rng: _dim_args(rng, NUMS), alias=True)
case("select", lambda T, x, dim, keepdim: x.select(dim, -1), lambda rng: _dim_args(rng, NUMS), alias=True)
case("unbind", lambda T, x, dim, keepdim: x.unbind(dim), lambda rng: _dim_args(rng, NUMS), alias=True)
case("chunk", lambda T, x, dim, keepdim: x.chunk(2, dim), lambda rng: _dim_args(rng, NUMS), alias=True)
case("split", lambda T, x, dim, keepdim: x.split(2, dim), lambda rng: _dim_args(rng, NUMS), alias=True)
case("slice_step", lambda T, x: x[..., ::2], unary(), alias=True)
case("getitem_neg", lambda T, x: x[-1], unary(), alias=True)
case("getitem_list", lambda T, x: x[[0, -1]], unary(), alias=True)
case("getitem_none", lambda T, x: x[None, ..., None], unary(), alias=True)
case("diagonal", lambda T, x: x.diagonal(), unary(shapes=[(2, 3), (3, 1), (2, 3, 2), (2, 0)]), alias=True)
case("movedim", lambda T, x, dim, keepdim: x.movedim(dim, -1), lambda rng: _dim_args(rng, NUMS), alias=True)
case("real", lambda T, x: x.real, unary(), alias=True)
case("imag", lambda T, x: x.imag, unary(), alias=True)
case("view_as_real", lambda T, x: T.view_as_real(x), unary(("complex64",)), alias=True)
case("contiguous_t", lambda T, x: x.t().contiguous(), unary(shapes=[(2, 3), (3, 1)]), alias=True)
case("detach", lambda T, x: x.detach(), unary(), alias=True, grad=False)
case("cat", lambda T, x, y: T.cat([x, y]), binary(NUMS, scalars=False))
case("stack", lambda T, x, y: T.stack([x, y], -1), binary(NUMS, scalars=False))
case("tile", lambda T, x: T.tile(x, (2, 1)), unary())
case("repeat", lambda T, x: x.repeat(2, *([1] * x.dim())), unary())
case("repeat_interleave", lambda T, x: T.repeat_interleave(x, 2, 0), unary(shapes=SHAPES[1:]))
case("tril", lambda T, x: T.tril(x, -1), unary(shapes=[(2, 3), (3, 1), (2, 3, 2)]), inplace="tril_")
case("triu", lambda T, x: T.triu(x, 1), unary(shapes=[(2, 3), (3, 1), (2, 3, 2)]))
case("rot90", lambda T, x: T.rot90(x), unary(shapes=[(2, 3), (3, 1), (2, 3, 2)]))
case("broadcast_to", lambda T, x: T.broadcast_to(x, (2,) + tuple(x.shape)), unary(), alias=True)
case("outer", lambda T, x, y: T.outer(x, y), lambda rng: _vecs(rng), second=True)
case("kron", lambda T, x, y: T.kron(x, y), binary(INEXACT, scalars=False))
case("flatten_end", lambda T, x: x.flatten(1), unary(shapes=[(2, 3), (2, 3, 2), (2, 0)]), alias=True)
case("unflatten", lambda T, x: x.unflatten(-1, (1, -1)), unary(shapes=SHAPES[1:]), alias=True)

# indexing and scatter
case("gather", lambda T, x, i, d: T.gather(x, d, i), lambda rng: _gather_args(rng))
case("take_along_dim", lambda T, x, i, d: T.take_along_dim(x, i, d), lambda rng: _gather_args(rng))
case("scatter", lambda T, x, i, d, src: x.scatter(d, i, src), lambda rng: _scatter_args(rng),
     inplace=lambda y, i, d, src: y.scatter_(d, i, src))
case("scatter_add", lambda T, x, i, d, src: x.scatter_add(d, i, src), lambda rng: _scatter_args(rng, True),
     inplace=lambda y, i, d, src: y.scatter_add_(d, i, src))
case("scatter_reduce_amax", lambda T, x, i, d, src: x.scatter_reduce(d, i, src, "amax"),
     lambda rng: _scatter_args(rng, True))
case("scatter_reduce_mean", lambda T, x, i, d, src: x.scatter_reduce(d, i, src, "mean", include_self=False),
     lambda rng: _scatter_args(rng, True))
case("scatter_reduce_prod", lambda T, x, i, d, src: x.scatter_reduce(d, i, src, "prod"),
     lambda rng: _scatter_args(rng, True))
case("index_select", lambda T, x, i: T.index_select(x, 0, i), lambda rng: _index_args(rng))
case("index_add", lambda T, x, i, s: x.index_add(0, i, s, alpha=2), lambda rng: _index_args(rng, src=True),
     inplace=lambda y, i, s: y.index_add_(0, i, s, alpha=2))
case("index_copy", lambda T, x, i, s: x.index_copy(0, i, s),
     lambda rng: _index_args(rng, src=True, uniq=True))
case("index_fill", lambda T, x, i: x.index_fill(0, i, -2.0), lambda rng: _index_args(rng))
case("index_put_acc", lambda T, x, i, s: x.index_put((i,), s, accumulate=True),
     lambda rng: _index_args(rng, src=True), inplace=lambda y, i, s: y.index_put_((i,), s, accumulate=True))
case("getitem_tensor", lambda T, x, i: x[i], lambda rng: _index_args(rng))
case("setitem_tensor", lambda T, x, i, s: _setitem(x, i, s),
     lambda rng: _index_args(rng, src=True, uniq=True))
case("take", lambda T, x, i: T.take(x, i), lambda rng: _index_args(rng, flat=True))
case("masked_select", lambda T, x, m: T.masked_select(x, m), lambda rng: _masked(rng))
case("masked_scatter", lambda T, x, m: x.masked_scatter(m, x * 2), lambda rng: _masked(rng))
case("nonzero", lambda T, x: T.nonzero(x), unary(REALS), grad=False)
case("one_hot", lambda T, x: T.nn.functional.one_hot(x.abs(), 6), unary(("int64",)), grad=False)
case("bucketize", lambda T, x: T.bucketize(x, T.tensor([-1.0, 0.0, 1.0], dtype=x.dtype)), unary(FLOATS))
case("searchsorted", lambda T, x: T.searchsorted(T.tensor([-1.0, 0.0, 1.0], dtype=x.dtype), x, right=True),
     unary(FLOATS))
case("embedding", lambda T, i, w: T.nn.functional.embedding(i, w), lambda rng: _embedding_args(rng))

# linear algebra (small, well-conditioned-ish)
case("matmul", lambda T, x, y: T.matmul(x, y), lambda rng: _matmul_args(rng), second=True, tol=4)
case("mm", lambda T, x, y: T.mm(x, y), lambda rng: _matmul_args(rng, two_d=True), second=True, tol=4)
case("bmm", lambda T, x, y: T.bmm(x, y), lambda rng: _matmul_args(rng, batch=True), tol=4)
case("dot", lambda T, x, y: T.dot(x, y), lambda rng: _vecs(rng, same=True), second=True)
case("vdot", lambda T, x, y: T.vdot(x, y), lambda rng: _vecs(rng, same=True, dtypes=INEXACT))
case("einsum", lambda T, x, y: T.einsum("ij,kj->ik", x, y),
     lambda rng: _matmul_args(rng, two_d=True, tb=True),
     tol=4)
case("tensordot", lambda T, x, y: T.tensordot(x, y, dims=1), lambda rng: _matmul_args(rng, two_d=True), tol=4)
case("addmm", lambda T, x, y: T.addmm(T.ones(x.shape[0], y.shape[1], dtype=x.dtype), x, y, beta=0.5),
     lambda rng: _matmul_args(rng, two_d=True), tol=4)
for _n, _sq in [("linalg.inv", True), ("linalg.det", True), ("linalg.slogdet", True),
                ("linalg.cholesky", "spd"), ("linalg.qr", False), ("linalg.eigh", "sym"),
                ("linalg.svdvals", False), ("linalg.pinv", False),
                ("linalg.matrix_norm", False), ("linalg.vector_norm", False), ("linalg.norm", False),
                ("trace", True), ("linalg.matrix_exp", True), ("linalg.eigvalsh", "sym"),
                ("linalg.solve_ex", True), ("logdet", "spd"), ("linalg.matrix_power3", True),
                ("linalg.cross", "vec3"), ("cholesky_solve", "spd"), ("linalg.lu_factor", True)]:
    case(_n, (lambda t: lambda T, x: _linalg_call(T, t, x))(_n), (lambda s: lambda rng: _square(rng, s))(_sq),
         tol=50, second=_n in ("linalg.inv", "linalg.det", "trace", "linalg.cholesky", "linalg.eigvalsh"))
case("linalg.solve", lambda T, a, b: T.linalg.solve(a, b), lambda rng: _solve_args(rng), tol=50, second=True)
case("triangular_solve", lambda T, a, b: T.linalg.solve_triangular(a, b, upper=True),
     lambda rng: _solve_args(rng), tol=50)

# nn.functional
F_ACT = ["relu", "relu6", "elu", "selu", "celu", "gelu", "silu", "mish", "softplus", "softsign", "tanhshrink",
         "hardtanh", "hardswish", "hardsigmoid", "leaky_relu", "logsigmoid", "softshrink", "hardshrink",
         "sigmoid", "tanh", "glu", "normalize", "softmin", "rrelu_eval", "threshold"]
INPLACE_ACT = {"relu", "relu6", "elu", "selu", "celu", "leaky_relu", "hardtanh", "hardswish", "hardsigmoid",
               "silu", "mish", "threshold"}
for _n in F_ACT:
    case("F." + _n, (lambda t: lambda T, x: _act(T, t, x))(_n), unary(FLOATS), second=_n not in (
        "relu", "relu6", "hardtanh", "hardshrink", "softshrink", "threshold", "rrelu_eval"),
         extra={"inplace_kw": _n in INPLACE_ACT})
F_LOSS = ["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
          "binary_cross_entropy_with_logits", "kl_div", "soft_margin_loss", "poisson_nll_loss",
          "cross_entropy", "nll_loss", "cross_entropy_probs", "cross_entropy_smooth", "margin_ranking_loss",
          "hinge_embedding_loss", "cosine_similarity", "pairwise_distance", "gaussian_nll_loss",
          "multilabel_soft_margin_loss", "multi_margin_loss", "triplet_margin_loss", "cosine_embedding_loss"]
for _n in F_LOSS:
    case("F." + _n, (lambda t: lambda T, x, y, **kw: _loss(T, t, x, y, **kw))(_n),
         (lambda t: lambda rng: _loss_args(rng, t))(_n), second=_n not in ("l1_loss", "hinge_embedding_loss",
                                                                          "multi_margin_loss"))
case("F.conv1d", lambda T, x, w: T.nn.functional.conv1d(x, w, padding=1, stride=2), lambda rng: _conv(rng, 1),
     second=True, tol=4)
case("F.conv2d", lambda T, x, w: T.nn.functional.conv2d(x, w, padding=(1, 0), dilation=(1, 2)),
     lambda rng: _conv(rng, 2), second=True, tol=4)
case("F.conv2d_groups", lambda T, x, w: T.nn.functional.conv2d(x, w.narrow(1, 0, 1), groups=2),
     lambda rng: _conv(rng, 2), tol=4)
case("F.conv_transpose2d", lambda T, x, w: T.nn.functional.conv_transpose2d(x, w.transpose(0, 1), stride=2),
     lambda rng: _conv(rng, 2), tol=4)
case("F.max_pool2d", lambda T, x: T.nn.functional.max_pool2d(x, 2, ceil_mode=True), lambda rng: _img(rng))
case("F.max_pool1d_idx", lambda T, x: T.nn.functional.max_pool1d(x[:, :, 0], 2, 1, return_indices=True),
     lambda rng: _img(rng))
case("F.avg_pool2d", lambda T, x: T.nn.functional.avg_pool2d(x, 2, padding=1, count_include_pad=False),
     lambda rng: _img(rng), second=True)
case("F.adaptive_avg_pool2d", lambda T, x: T.nn.functional.adaptive_avg_pool2d(x, (2, 3)),
     lambda rng: _img(rng))
case("F.adaptive_max_pool2d", lambda T, x: T.nn.functional.adaptive_max_pool2d(x, 2), lambda rng: _img(rng))
case("F.lp_pool2d", lambda T, x: T.nn.functional.lp_pool2d(x, 2, 2), lambda rng: _img(rng))
case("F.layer_norm", lambda T, x: T.nn.functional.layer_norm(x, x.shape[-1:]), lambda rng: _img(rng),
     second=True, tol=4)
case("F.layer_norm_affine",
     lambda T, x, w: T.nn.functional.layer_norm(x, x.shape[-1:], w[0, 0, 0], w[0, 0, 1]),
     lambda rng: _img(rng, 2), second=True, tol=4)
case("F.group_norm", lambda T, x: T.nn.functional.group_norm(x, 2), lambda rng: _img(rng), tol=4)
case("F.instance_norm", lambda T, x: T.nn.functional.instance_norm(x), lambda rng: _img(rng), tol=4)
case("F.batch_norm_train", lambda T, x: T.nn.functional.batch_norm(x, None, None, training=True),
     lambda rng: _img(rng), second=True, tol=4)
case("F.rms_norm", lambda T, x: T.nn.functional.rms_norm(x, (x.shape[-1],)), lambda rng: _img(rng), tol=4)
case("F.local_response_norm", lambda T, x: T.nn.functional.local_response_norm(x, 2), lambda rng: _img(rng),
     tol=4)
case("F.pad_reflect", lambda T, x: T.nn.functional.pad(x, (1, 1), mode="reflect"), lambda rng: _img(rng))
case("F.pad_const", lambda T, x: T.nn.functional.pad(x, (1, -1, 0, 1), value=0.5), lambda rng: _img(rng))
case("F.pad_replicate", lambda T, x: T.nn.functional.pad(x, (2, 1), mode="replicate"), lambda rng: _img(rng))
case("F.interpolate_bilinear", lambda T, x: T.nn.functional.interpolate(x, scale_factor=2, mode="bilinear"),
     lambda rng: _img(rng), tol=4)
case("F.interpolate_nearest", lambda T, x: T.nn.functional.interpolate(x, size=(3, 5)), lambda rng: _img(rng))
case("F.unfold", lambda T, x: T.nn.functional.unfold(x, 2), lambda rng: _img(rng))
case("F.pixel_shuffle", lambda T, x: T.nn.functional.pixel_shuffle(x.repeat(1, 2, 1, 1), 2),
     lambda rng: _img(rng))
case("F.linear", lambda T, x, w: T.nn.functional.linear(x, w),
     lambda rng: _matmul_args(rng, two_d=True, tb=True),
     second=True, tol=4)
case("F.bilinear", lambda T, x, y, w: T.nn.functional.bilinear(x, y, w), lambda rng: _bilinear(rng), tol=4)
case("F.dropout_eval", lambda T, x: T.nn.functional.dropout(x, 0.5, training=False), unary(FLOATS))
case("F.scaled_dot_product_attention", lambda T, q, k, v: T.nn.functional.scaled_dot_product_attention(
    q, k, v, is_causal=True), lambda rng: _sdpa(rng), tol=4)


# ---------------------------------------------------------------- argument makers

def _attr(T, dotted):
    obj = T
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def _ternary(rng, dtypes):
    shape = _pick(rng, SHAPES)
    dt = _pick(rng, dtypes)
    return [draw_values(rng, dt, shape), draw_values(rng, dt, _bcast_partner(rng, shape)),
            draw_values(rng, _pick(rng, dtypes), _bcast_partner(rng, shape))], {}


def _where_args(rng):
    shape = _pick(rng, SHAPES)
    return [np.asarray(rng.random(shape) < 0.5),
            draw_values(rng, _pick(rng, NUMS), _bcast_partner(rng, shape)),
            draw_values(rng, _pick(rng, NUMS), _bcast_partner(rng, shape))], {}


def _clamp_args(rng):
    x = draw_values(rng, _pick(rng, REALS), _pick(rng, SHAPES))
    kw = _pick(rng, [dict(min=-0.5), dict(max=1), dict(min=-1.0, max=1.0), dict(min=1.0, max=-1.0),
                     dict(min=float("nan"))])
    return [x], kw


def _masked(rng):
    shape = _pick(rng, SHAPES)
    mask = np.asarray(rng.random(_bcast_partner(rng, shape)) < 0.5)
    return [draw_values(rng, _pick(rng, NUMS), shape), mask], {}


def _dim_args(rng, dtypes):
    shape = _pick(rng, SHAPES)
    d = _dim(rng, len(shape), allow_none=False)
    return [draw_values(rng, _pick(rng, dtypes), shape), d, bool(rng.random() < 0.5)], {}


def _vecs(rng, same=False, dtypes=NUMS):
    n = _pick(rng, [0, 1, 3])
    dt = _pick(rng, dtypes)
    m = n if same else _pick(rng, [0, 2])
    return [draw_values(rng, dt, (n,)), draw_values(rng, dt if same else _pick(rng, dtypes), (m,))], {}


def _matmul_args(rng, two_d=False, batch=False, tb=False):
    dt = _pick(rng, INEXACT + ("int64",))
    n, k, m = (int(rng.integers(0, 4)) for _ in range(3))
    if batch:
        a, b = (2, n, k), (2, k, m)
    elif two_d:
        a, b = (n, k), (k, m)
    else:
        a, b = _pick(rng, [((n, k), (k, m)), ((k,), (k, m)), ((n, k), (k,)), ((2, n, k), (k, m)),
                           ((k,), (k,)),
                           ((n, k), (2, 1, k, m))])
    if tb:
        b = b[::-1]
    if rng.random() < 0.05:
        b = (k + 1,) + tuple(b[1:])
    return [draw_values(rng, dt, a, edges=False), draw_values(rng, dt, b, edges=False)], {}


def _square(rng, kind):
    dt = _pick(rng, ("float64", "float64", "float32", "complex64") if kind != "vec3" else FLOATS)
    n = int(rng.integers(1, 4))
    batch = _pick(rng, [(), (2,)])
    if kind == "vec3":
        return [draw_values(rng, dt, batch + (2, 3), edges=False)], {}
    if kind is False:
        return [draw_values(rng, dt, batch + (n, int(rng.integers(1, 4))), edges=False)], {}
    a = draw_values(rng, dt, batch + (n, n), edges=False)
    if kind in ("spd", "sym"):
        a = a @ np.swapaxes(a.conj(), -1, -2) + (n * np.eye(n) if kind == "spd" else 0)
    return [a.astype(dt)], {}


def _linalg_call(T, name, x):
    if name == "linalg.matrix_power3":
        return T.linalg.matrix_power(x, 3)
    if name == "linalg.cross":
        return T.linalg.cross(x[..., 0, :], x[..., 1, :])
    if name == "linalg.eigh":  # eigenvectors up to sign/phase: compare V diag(L) V^H and |V|
        L, V = T.linalg.eigh(x)
        return L, (V * L.unsqueeze(-2).to(V.dtype)) @ V.mH, V.abs()
    if name == "cholesky_solve":
        return T.cholesky_solve(x.sum(-1, keepdim=True), T.linalg.cholesky(x))
    return _attr(T, name)(x)


def _solve_args(rng):
    dt = _pick(rng, ("float64", "float32"))
    n = int(rng.integers(1, 4))
    a = draw_values(rng, dt, (n, n), edges=False) + 3 * np.eye(n, dtype=dt)
    b = draw_values(rng, dt, _pick(rng, [(n,), (n, 2), (2, n, 1)]), edges=False)
    return [a, b], {}


def _gather_args(rng):
    shape = _pick(rng, [(3,), (2, 3), (3, 1), (2, 3, 2)])
    d = int(rng.integers(-len(shape), len(shape)))
    ishape = list(shape)
    ishape[d] = int(rng.integers(0, 4))
    hi = shape[d] + (1 if rng.random() < 0.05 else 0)
    return [draw_values(rng, _pick(rng, NUMS), shape), rng.integers(0, hi, ishape), d], {}


def _scatter_args(rng, same_dtype_src=False):
    x, i, d = _gather_args(rng)[0]
    src = draw_values(rng, x.dtype.name if same_dtype_src or rng.random() < 0.9 else "float64", i.shape)
    return [x, i, d, src], {}


def _index_args(rng, src=False, uniq=False, flat=False):
    shape = _pick(rng, [(3,), (2, 3), (3, 1), (4, 2)])
    x = draw_values(rng, _pick(rng, NUMS), shape)
    n = int(rng.integers(0, 4))
    size = int(np.prod(shape)) if flat else shape[0]
    i = rng.permutation(size)[:n] if uniq else rng.integers(-size if not src else 0, size, n)
    args = [x, i]
    if src:
        args.append(draw_values(rng, x.dtype.name, (len(i),) + shape[1:]))
    return args, {}


def _setitem(x, i, s):
    y = x.clone()
    y[i] = s
    return y


def _embedding_args(rng):
    idx = rng.integers(0, 4, _pick(rng, [(3,), (2, 2), (0,)]))
    return [idx, draw_values(rng, _pick(rng, FLOATS), (4, 3))], {}


def _act(T, name, x):
    F = T.nn.functional
    if name == "rrelu_eval":
        return F.rrelu(x, training=False)
    if name == "threshold":
        return F.threshold(x, 0.5, -1.0)
    if name == "glu":
        return F.glu(T.cat([x, x * 0.5], -1) if x.dim() else x.reshape(1).repeat(2))
    if name == "normalize":
        return F.normalize(x, dim=-1) if x.dim() else F.normalize(x, dim=0)
    if name == "softmin":
        return F.softmin(x, dim=-1) if x.dim() else F.softmin(x, dim=0)
    return getattr(F, name)(x)


def _loss_args(rng, name):
    dt = _pick(rng, FLOATS)
    n, c = int(rng.integers(0, 4)), int(rng.integers(1, 4))
    red = _pick(rng, ["mean", "sum", "none"])
    kw = {"reduction": red}
    if name in ("cross_entropy", "nll_loss", "multi_margin_loss"):
        x = draw_values(rng, dt, (n, c))
        y = rng.integers(-100 if name != "multi_margin_loss" and rng.random() < 0.2 else 0, c, (n,))
        return [x, y], kw
    x = draw_values(rng, dt, (n, c))
    if name in ("binary_cross_entropy",):
        x, y = rng.random((n, c)).astype(dt), rng.random((n, c)).astype(dt)
    elif name in ("kl_div",):
        y = rng.random((n, c)).astype(dt)
        kw["log_target"] = bool(rng.random() < 0.3)
    elif name in ("cross_entropy_probs",):
        y = rng.random((n, c)).astype(dt)
    elif name in ("soft_margin_loss", "hinge_embedding_loss", "multilabel_soft_margin_loss"):
        y = np.where(rng.random((n, c)) < 0.5, -1.0, 1.0).astype(dt)
        if name == "multilabel_soft_margin_loss":
            y = (y > 0).astype(dt)
    elif name == "poisson_nll_loss":
        y = rng.poisson(2, (n, c)).astype(dt)
    elif name in ("cosine_similarity", "pairwise_distance"):
        y = draw_values(rng, dt, (n, c))
        kw = {}
    else:
        y = draw_values(rng, dt, (n, c))
    return [x, y], kw


def _loss(T, name, x, y, **kw):
    F = T.nn.functional
    if name == "cross_entropy_probs":
        return F.cross_entropy(x, y, **kw)
    if name == "cross_entropy_smooth":
        return F.cross_entropy(x, (y.abs() * 10).long() % max(x.shape[-1], 1), label_smoothing=0.2, **kw)
    if name == "margin_ranking_loss":
        return F.margin_ranking_loss(x, y, T.ones_like(x).neg(), margin=0.1, **kw)
    if name == "gaussian_nll_loss":
        return F.gaussian_nll_loss(x, y, y.abs() + 0.5, **kw)
    if name == "triplet_margin_loss":
        return F.triplet_margin_loss(x, y, y.flip(0), **kw)
    if name == "cosine_embedding_loss":
        return F.cosine_embedding_loss(x, y, T.ones(x.shape[0], dtype=x.dtype), **kw)
    return getattr(F, name)(x, y, **kw)


def _img(rng, extra=0):
    dt = _pick(rng, FLOATS)
    shape = (int(rng.integers(1, 3)), 2, int(rng.integers(1, 5)), int(rng.integers(2, 5)))
    out = [draw_values(rng, dt, shape, edges=rng.random() < 0.3)]
    for _ in range(extra - 1):
        out.append(draw_values(rng, dt, shape))
    return out, {}


def _conv(rng, nd):
    dt = _pick(rng, FLOATS)
    x = draw_values(rng, dt, (int(rng.integers(1, 3)), 2) + tuple(int(rng.integers(3, 6)) for _ in range(nd)),
                    edges=False)
    w = draw_values(rng, dt, (4, 2) + (2,) * nd, edges=False)
    return [x, w], {}


def _bilinear(rng):
    dt = _pick(rng, FLOATS)
    n = int(rng.integers(0, 3))
    return [draw_values(rng, dt, (n, 2)), draw_values(rng, dt, (n, 3)), draw_values(rng, dt, (2, 2, 3))], {}


def _sdpa(rng):
    dt = _pick(rng, FLOATS)
    L, S = int(rng.integers(1, 4)), int(rng.integers(1, 4))
    S = L if rng.random() < 0.5 else S
    return [draw_values(rng, dt, (2, L, 4), edges=False), draw_values(rng, dt, (2, S, 4), edges=False),
            draw_values(rng, dt, (2, S, 3), edges=False)], {}


# ---------------------------------------------------------------- round 22: areas not covered before
# linalg with gradients (gauge-free outputs), fft, losses with their options, pooling/interpolate/
# grid_sample modes, advanced indexing, type promotion with scalars and 0-d tensors, reductions with
# dim tuples and dtype=, distributions (log_prob/entropy/rsample), torch.special.

def _gauge_free(T, name, x):
    """Outputs of a decomposition that do not depend on its sign/phase choice."""
    if name == "svd":
        U, S, Vh = T.linalg.svd(x, full_matrices=False)
        return S, (U * S.unsqueeze(-2).to(U.dtype)) @ Vh, U.abs()
    if name == "qr_complete":
        Q, R = T.linalg.qr(x, mode="complete")
        return Q @ R, R.diagonal(dim1=-2, dim2=-1).abs()
    if name == "eig":
        L = T.linalg.eigvals(x)
        return T.sort(L.real, -1).values, (L.real ** 2 + L.imag ** 2).sum(-1)
    raise KeyError(name)


LINALG22 = {
    "svd": (lambda T, x: _gauge_free(T, "svd", x), False),
    "qr_complete": (lambda T, x: _gauge_free(T, "qr_complete", x), False),
    "matrix_norm_nuc": (lambda T, x: T.linalg.matrix_norm(x, "nuc"), False),
    "matrix_norm_2": (lambda T, x: T.linalg.matrix_norm(x, 2), False),
    "matrix_norm_-2": (lambda T, x: T.linalg.matrix_norm(x, -2), False),
    "matrix_norm_1": (lambda T, x: T.linalg.matrix_norm(x, 1, keepdim=True), False),
    "matrix_norm_inf": (lambda T, x: T.linalg.matrix_norm(x, float("inf")), False),
    "matrix_norm_-inf": (lambda T, x: T.linalg.matrix_norm(x, -float("inf")), False),
    "norm_ord_fro_dim": (lambda T, x: T.linalg.norm(x, "fro", dim=(-2, -1)), False),
    "vector_norm_ord": (lambda T, x: T.linalg.vector_norm(x, 3, dim=-1), False),
    "vector_norm_0": (lambda T, x: T.linalg.vector_norm(x, 0, dim=(-2, -1)), False),
    "vector_norm_-inf": (lambda T, x: T.linalg.vector_norm(x, -float("inf"), dim=-1), False),
    "vector_norm_dtype": (lambda T, x: T.linalg.vector_norm(x, dtype=T.complex128 if x.is_complex()
                                                              else T.float64), False),
    "lstsq": (lambda T, x: T.linalg.lstsq(x, x.sum(-1, keepdim=True)).solution, "tall"),
    "pinv_hermitian": (lambda T, x: T.linalg.pinv(x, hermitian=True), "sym"),
    "cond": (lambda T, x: T.linalg.cond(x), True),
    "matrix_rank": (lambda T, x: T.linalg.matrix_rank(x), False),
    "inv_ex": (lambda T, x: T.linalg.inv_ex(x), True),
    "cholesky_ex_upper": (lambda T, x: T.linalg.cholesky_ex(x, upper=True), "spd"),
    "eigvals": (lambda T, x: _gauge_free(T, "eig", x), True),
    "multi_dot": (lambda T, x: T.linalg.multi_dot([x, x.mT, x]), False),
    "vecdot": (lambda T, x: T.linalg.vecdot(x, x.flip(-1)), False),
    "vander": (lambda T, x: T.linalg.vander(x[..., 0]), False),
    "lu": (lambda T, x: T.linalg.lu(x)[1:], True),
    "lu_solve": (lambda T, x: T.linalg.lu_solve(*T.linalg.lu_factor(x), x.sum(-1, keepdim=True)), True),
    "householder_product": (lambda T, x: T.linalg.householder_product(x, x[..., 0, :1]), "tall"),
    "tensorinv": (lambda T, x: T.linalg.tensorinv(x.reshape(x.shape[-2:] + (1,)), ind=2)
                  if x.dim() == 2 else T.linalg.inv(x), True),
    "solve_left_false": (lambda T, x: T.linalg.solve(x + 3 * T.eye(x.shape[-1], dtype=x.dtype),
                                                      x.sum(-2, keepdim=True), left=False), True),
    "slogdet_sign": (lambda T, x: T.linalg.slogdet(x).sign, True),
    "det_singular": (lambda T, x: T.linalg.det(x[..., :1, :].expand(x.shape)), True),
    "ldl": (lambda T, x: T.linalg.ldl_solve(*T.linalg.ldl_factor(x), x.sum(-1, keepdim=True)), "sym"),
}
for _n, (_f, _sq) in LINALG22.items():
    case("linalg22." + _n, _f, (lambda s: lambda rng: _square22(rng, s))(_sq), tol=50,
         second=_n in ("svd", "matrix_norm_nuc", "lstsq", "cond", "multi_dot"))


def _square22(rng, kind):
    if kind == "tall":
        dt = _pick(rng, ("float64", "float32", "complex64"))
        n = int(rng.integers(1, 4))
        return [draw_values(rng, dt, _pick(rng, [(), (2,)]) + (n + int(rng.integers(0, 2)), n),
                            edges=False)], {}
    return _square(rng, kind)


FFT22 = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "fftn", "rfftn",
         "irfftn", "hfft2", "ihfft2", "fftshift", "ifftshift"]
for _n in FFT22:
    case("fft." + _n, (lambda t: lambda T, x, **kw: _fft22(T, t, x, **kw))(_n),
         (lambda t: lambda rng: _fft_args(rng, t))(_n), tol=10, second=_n in ("fft", "rfft", "irfft"))


def _fft22(T, name, x, **kw):
    return getattr(T.fft, name)(x, **kw)


def _fft_args(rng, name):
    dt = _pick(rng, ("float32", "float64", "complex64", "int64") if name != "ihfft" else FLOATS)
    shape = _pick(rng, [(4,), (5,), (2, 3), (3, 4), (2, 2, 3), (1,)])
    kw = {}
    if name.endswith("shift"):
        if rng.random() < 0.5:
            kw["dim"] = _pick(rng, [0, -1, (0, -1)]) if len(shape) > 1 else 0
        return [draw_values(rng, dt, shape, edges=False)], kw
    if rng.random() < 0.5:
        kw["norm"] = _pick(rng, ["forward", "ortho", "backward"])
    two = name.endswith("2") or name.endswith("n")
    if two and len(shape) < 2:
        shape = (2, 3)
    if rng.random() < 0.4:
        if two:
            kw["s"] = (int(rng.integers(1, 5)), int(rng.integers(1, 6)))
        else:
            kw["n"] = int(rng.integers(1, 7))
    if not two and len(shape) > 1 and rng.random() < 0.4:
        kw["dim"] = 0
    return [draw_values(rng, dt, shape, edges=rng.random() < 0.2)], kw


def _loss22_args(rng, name):
    dt = _pick(rng, FLOATS)
    n, c = int(rng.integers(0, 4)), int(rng.integers(2, 4))
    kw = {"reduction": _pick(rng, ["mean", "sum", "none"])}
    spatial = (int(rng.integers(1, 3)),) if rng.random() < 0.3 else ()
    x = draw_values(rng, dt, (n, c) + spatial, edges=rng.random() < 0.2)
    if name in ("ce_weight", "nll_weight", "ce_ignore", "ce_all"):
        y = rng.integers(0, c, (n,) + spatial)
        if rng.random() < 0.4:
            y = np.where(rng.random(y.shape) < 0.3, 1, y)
        kw["weight"] = np.abs(draw_values(rng, dt, (c,), edges=False)) + 0.1
        if name in ("ce_ignore", "ce_all"):
            kw["ignore_index"] = 1
        if name in ("ce_weight", "ce_all"):
            kw["label_smoothing"] = _pick(rng, [0.0, 0.1, 0.5])
        return [x, y], kw
    if name == "ce_probs_smooth":
        y = rng.random((n, c) + spatial).astype(dt)
        kw["label_smoothing"] = 0.25
        if rng.random() < 0.5:
            kw["weight"] = np.abs(draw_values(rng, dt, (c,), edges=False)) + 0.1
        return [x, y], kw
    if name == "bce_weight":
        x, y = rng.random((n, c)).astype(dt), rng.random((n, c)).astype(dt)
        kw["weight"] = rng.random((c,)).astype(dt)
        return [x, y], kw
    if name == "bce_logits_pos_weight":
        y = rng.random((n, c)).astype(dt)
        kw["pos_weight"] = rng.random((c,)).astype(dt) * 2
        if rng.random() < 0.5:
            kw["weight"] = rng.random((c,)).astype(dt)
        return [x[:, :c].reshape(n, c) if not spatial else x[..., 0], y], kw
    if name == "kl_batchmean":
        kw["reduction"] = "batchmean"
        return [x, np.abs(draw_values(rng, dt, x.shape, edges=False))], kw
    if name in ("huber_delta", "smooth_l1_beta"):
        kw["delta" if name == "huber_delta" else "beta"] = _pick(rng, [0.5, 2.0, 0.0] if name != "huber_delta"
                                                                 else [0.5, 2.0])
        return [x, draw_values(rng, dt, x.shape)], kw
    if name == "multi_margin_p2_weight":
        y = rng.integers(0, c, (n,))
        kw.update(p=2, margin=0.5, weight=rng.random((c,)).astype(dt))
        return [x[..., 0] if spatial else x, y], kw
    if name == "multilabel_margin":
        y = rng.integers(-1, c, (n, c))
        return [x[..., 0] if spatial else x, y], kw
    if name == "poisson_full":
        kw.update(log_input=bool(rng.random() < 0.5), full=True)
        return [np.abs(x) + 0.1, rng.poisson(3, x.shape).astype(dt)], kw
    if name == "nll_2d":
        x = draw_values(rng, dt, (n, c, 2, 2))
        y = rng.integers(-100 if rng.random() < 0.3 else 0, c, (n, 2, 2))
        return [x, y], kw
    raise KeyError(name)


LOSS22 = ["ce_weight", "nll_weight", "ce_ignore", "ce_all", "ce_probs_smooth", "bce_weight",
          "bce_logits_pos_weight", "kl_batchmean", "huber_delta", "smooth_l1_beta", "multi_margin_p2_weight",
          "multilabel_margin", "poisson_full", "nll_2d"]


def _loss22(T, name, x, y, **kw):
    F = T.nn.functional
    kw = {k: (T.tensor(v) if isinstance(v, np.ndarray) else v) for k, v in kw.items()}
    fn = {"ce_weight": F.cross_entropy, "nll_weight": F.nll_loss, "ce_ignore": F.cross_entropy,
          "ce_all": F.cross_entropy, "ce_probs_smooth": F.cross_entropy, "bce_weight": F.binary_cross_entropy,
          "bce_logits_pos_weight": F.binary_cross_entropy_with_logits, "kl_batchmean": F.kl_div,
          "huber_delta": F.huber_loss, "smooth_l1_beta": F.smooth_l1_loss,
          "multi_margin_p2_weight": F.multi_margin_loss, "multilabel_margin": F.multilabel_margin_loss,
          "poisson_full": F.poisson_nll_loss, "nll_2d": F.nll_loss}[name]
    return fn(x, y, **kw)


for _n in LOSS22:
    case("loss22." + _n, (lambda t: lambda T, x, y, **kw: _loss22(T, t, x, y, **kw))(_n),
         (lambda t: lambda rng: _loss22_args(rng, t))(_n), second=_n not in ("multi_margin_p2_weight",
                                                                             "multilabel_margin"))


def _img22(rng, nd=2):
    dt = _pick(rng, FLOATS)
    shape = (int(rng.integers(1, 3)), 2) + tuple(int(rng.integers(1, 6)) for _ in range(nd))
    return [draw_values(rng, dt, shape, edges=rng.random() < 0.3)], {}


def _pool22_args(rng, nd, kind):
    [x], _ = _img22(rng, nd)
    k = int(rng.integers(1, 4))
    kw = {"kernel_size": k, "stride": int(rng.integers(1, 3)), "padding": int(rng.integers(0, k // 2 + 1)),
          "ceil_mode": bool(rng.random() < 0.5)}
    if kind == "max":  # (dilated windows with padding can lie wholly in the padding, where PyTorch 2.13's
        # max_pool2d backward corrupts the heap: "double free or corruption")
        kw["dilation"] = int(rng.integers(1, 3)) if kw["padding"] == 0 else 1
    elif kind == "avg":
        kw["count_include_pad"] = bool(rng.random() < 0.5)
        if nd > 1 and rng.random() < 0.3:
            kw["divisor_override"] = 3
    return [x], kw


for _nd in (1, 2, 3):
    for _kind in ("max", "avg"):
        case(f"pool22.{_kind}_pool{_nd}d",
             (lambda nd, kind: lambda T, x, **kw: _attr(T, f"nn.functional.{kind}_pool{nd}d")(x, **kw))(
                 _nd, _kind),
             (lambda nd, kind: lambda rng: _pool22_args(rng, nd, kind))(_nd, _kind), second=_kind == "avg")
    case(f"pool22.adaptive_max_pool{_nd}d",
         (lambda nd: lambda T, x, s: getattr(T.nn.functional, f"adaptive_max_pool{nd}d")(x, s))(_nd),
         (lambda nd: lambda rng: (_img22(rng, nd)[0] + [int(rng.integers(1, 4))], {}))(_nd))
    case(f"pool22.adaptive_avg_pool{_nd}d",
         (lambda nd: lambda T, x, s: getattr(T.nn.functional, f"adaptive_avg_pool{nd}d")(x, s))(_nd),
         (lambda nd: lambda rng: (_img22(rng, nd)[0] + [int(rng.integers(1, 4))], {}))(_nd))
case("pool22.max_pool2d_indices", lambda T, x: T.nn.functional.max_pool2d(x, 2, 1, return_indices=True),
     lambda rng: _img22(rng))
case("pool22.max_unpool2d", lambda T, x: T.nn.functional.max_unpool2d(
    *T.nn.functional.max_pool2d(x, 2, 2, return_indices=True), 2, 2, output_size=x.shape[-2:]),
     lambda rng: _img22(rng))
case("pool22.lp_pool1d", lambda T, x: T.nn.functional.lp_pool1d(x, 3, 2, ceil_mode=True),
     lambda rng: _img22(rng, 1))

INTERP22 = [("nearest", 1), ("nearest", 2), ("nearest-exact", 2), ("linear", 1), ("bilinear", 2),
            ("bicubic", 2), ("trilinear", 3), ("area", 2), ("nearest", 3)]


def _interp_args(rng, mode, nd):
    [x], _ = _img22(rng, nd)
    kw = {"mode": mode}
    if rng.random() < 0.5:
        kw["size"] = tuple(int(rng.integers(1, 7)) for _ in range(nd))
    else:
        kw["scale_factor"] = _pick(rng, [2.0, 0.5, 1.7, 3])
        if mode != "area" and rng.random() < 0.5:
            kw["recompute_scale_factor"] = bool(rng.random() < 0.5)
    if mode in ("linear", "bilinear", "bicubic", "trilinear") and rng.random() < 0.5:
        kw["align_corners"] = bool(rng.random() < 0.5)
    if mode == "bilinear" and rng.random() < 0.3:
        kw["antialias"] = True
    return [x], kw


for _m, _nd in INTERP22:
    case(f"interp22.{_m}{_nd}d", lambda T, x, **kw: T.nn.functional.interpolate(x, **kw),
         (lambda m, nd: lambda rng: _interp_args(rng, m, nd))(_m, _nd), tol=4, second=_m == "bicubic")


def _grid_args(rng):
    [x], _ = _img22(rng, 2)
    n = x.shape[0]
    grid = (rng.random((n, int(rng.integers(1, 4)), int(rng.integers(1, 4)), 2)) * 2.6 - 1.3).astype(x.dtype)
    if rng.random() < 0.3:
        grid = np.round(grid * 2) / 2  # on pixel centers and edges
    kw = {"mode": _pick(rng, ["bilinear", "nearest", "bicubic"]),
          "padding_mode": _pick(rng, ["zeros", "border", "reflection"]),
          "align_corners": bool(rng.random() < 0.5)}
    return [x, grid], kw


case("grid22.grid_sample", lambda T, x, g, **kw: T.nn.functional.grid_sample(x, g, **kw), _grid_args, tol=10)
case("grid22.affine_grid", lambda T, th, **kw: T.nn.functional.affine_grid(th, (th.shape[0], 1, 3, 4), **kw),
     lambda rng: ([draw_values(rng, _pick(rng, FLOATS), (2, 2, 3), edges=False)],
                  {"align_corners": bool(rng.random() < 0.5)}), second=True)
case("grid22.pixel_unshuffle", lambda T, x: T.nn.functional.pixel_unshuffle(x.repeat(1, 1, 2, 2), 2),
     lambda rng: _img22(rng))
case("grid22.pad_circular", lambda T, x, p: T.nn.functional.pad(x, p, mode="circular"),
     lambda rng: (_img22(rng)[0] + [_pick(rng, [(1, 1), (1, 0, 0, 1), (2, 1, 1, 0)])], {}))
case("grid22.pad_reflect2d", lambda T, x, p: T.nn.functional.pad(x, p, mode="reflect"),
     lambda rng: (_img22(rng)[0] + [_pick(rng, [(1, 1, 1, 1), (0, 1, 1, 0), (1, 1)])], {}))


def _adv_index_args(rng):
    shape = _pick(rng, [(3, 4), (2, 3, 4), (4, 2)])
    x = draw_values(rng, _pick(rng, NUMS), shape)
    k = int(rng.integers(0, 4))
    i = rng.integers(-shape[0], shape[0], k)
    j = rng.integers(0, shape[1], _pick(rng, [(k,), (1,), (2, 1) if k else (0,)]))
    return [x, i, j], {}


case("index22.xij", lambda T, x, i, j: x[i, j], _adv_index_args)
case("index22.x_colon_j", lambda T, x, i, j: x[:, j], _adv_index_args)
case("index22.x_i_ellipsis_j", lambda T, x, i, j: x[i[:1], ..., j[..., :1]] if x.dim() == 3 else x[i, ...],
     _adv_index_args)
case("index22.x_mask_j", lambda T, x, i, j: x[x.real > 0] if x.dim() == 2 else x[x.real.sum(-1) > 0, :1],
     _adv_index_args)
case("index22.index_put_acc2", lambda T, x, i, j: x.index_put((i, j), T.ones(()).to(x.dtype) * 2,
                                                               accumulate=True), _adv_index_args,
     inplace=lambda y, i, j: y.index_put_((i, j), T22ones(y), accumulate=True))
case("index22.index_put_noacc", lambda T, x, i, j: x.index_put((i,), x[0] * 3), _adv_index_args)
case("index22.setitem_ij", lambda T, x, i, j: _setitem22(x, (i, j), 1.5), _adv_index_args)
case("index22.setitem_mask", lambda T, x, i, j: _setitem22(x, x.real > 0, 0.25), _adv_index_args)
case("index22.masked_scatter_src", lambda T, x, m: x.masked_scatter(m, (x * 3).flip(0).reshape(-1).repeat(2)
                                                                    if x.dim() else x * 3),
     lambda rng: _masked(rng), inplace=lambda y, m: y.masked_scatter_(m, (y * 3).reshape(-1).repeat(2)
                                                                     if y.dim() else y * 3))
case("index22.take_along_dim_none", lambda T, x, i, d: T.take_along_dim(x, i.reshape(-1)),
     lambda rng: _gather_args(rng))
case("index22.index_reduce", lambda T, x, i, s, **kw: x.index_reduce(0, i, s, **kw),
     lambda rng: (_index_args(rng, src=True)[0], {"reduce": _pick(rng, ["prod", "mean", "amax", "amin"]),
                                                  "include_self": bool(rng.random() < 0.5)}))
for _r in ("sum", "prod", "mean", "amax", "amin"):
    case(f"index22.scatter_reduce_{_r}_self", (lambda r: lambda T, x, i, d, src, **kw: x.scatter_reduce(
        d, i, src, r, **kw))(_r), lambda rng: (_scatter_args(rng, True)[0],
                                               {"include_self": bool(rng.random() < 0.5)}),
         inplace=(lambda r: lambda y, i, d, src, **kw: y.scatter_reduce_(d, i, src, r, **kw))(_r))
case("index22.scatter_reduce_kw", lambda T, x, i, d, src, **kw: x.scatter(d, i, src, **kw),
     lambda rng: (_scatter_args(rng, True)[0], {"reduce": _pick(rng, ["add", "multiply"])}))
case("index22.scatter_value", lambda T, x, i, d, src: x.scatter(d, i, 2.5), lambda rng: _scatter_args(rng))
case("index22.gather_dup_grad", lambda T, x, i, d: T.gather(x, d, i * 0), lambda rng: _gather_args(rng))


def T22ones(y):
    return (y.new_ones(()) * 2)


def _setitem22(x, key, v):
    y = x.clone()
    y[key] = v
    return y


PROMO_DTYPES = ("int64", "int32", "int16", "uint8", "int8", "bool", "float32", "float64", "complex64",
                "complex128", "float16", "bfloat16")
PROMO_SCALARS = [2, -3, 300, 2.5, -0.0, True, False, 1 + 2j, float("inf")]
PROMO_OPS = ["add", "sub", "mul", "div", "pow", "remainder", "floor_divide", "maximum", "eq", "lt", "where",
             "bitwise_and", "fmod", "true_divide", "atan2", "rpow", "rsub", "radd_int", "rmul_0d"]


def _promo_args(rng):
    shape = _pick(rng, [(), (3,), (2, 1)])
    dt = _pick(rng, PROMO_DTYPES)
    a = draw_values(rng, dt if dt not in ("float16", "bfloat16") else "float32", shape, edges=False)
    r = rng.random()
    if r < 0.45:
        b = _pick(rng, PROMO_SCALARS)
    elif r < 0.75:  # a 0-d tensor of another dtype: promotes only by category
        b = draw_values(rng, _pick(rng, PROMO_DTYPES[:9]), (), edges=False)
    else:
        b = draw_values(rng, _pick(rng, PROMO_DTYPES[:9]), _pick(rng, [(), (3,), (1,)]), edges=False)
    return [a, b, dt], {}


def _promo(T, op, a, b, dt):
    a = a.to(getattr(T, dt))
    if op == "rpow":
        return b ** a if not hasattr(b, "shape") else T.pow(b, a)
    if op == "rsub":
        return b - a
    if op == "radd_int":
        return 3 + a + b
    if op == "rmul_0d":
        return a * T.tensor(b if not hasattr(b, "shape") else 2.0)
    if op == "where":
        return T.where(a.real > 0 if a.is_complex() else a > 0, a, b)
    return getattr(T, op)(a, b)


for _op in PROMO_OPS:
    case("promo22." + _op, (lambda op: lambda T, a, b, dt: _promo(T, op, a, b, dt))(_op), _promo_args,
         tol=200, inplace=None)


def _reduce22_args(rng, kind):
    shape = _pick(rng, [(2, 3), (2, 3, 2), (3, 1, 2), (2, 0, 3), ()])
    dt = _pick(rng, ("float32", "float64", "int64", "int32", "bool", "complex64", "uint8", "int8"))
    x = draw_values(rng, dt, shape)
    kw = {}
    nd = len(shape)
    if nd and rng.random() < 0.85:
        dims = sorted({int(d) for d in rng.integers(-nd, nd, int(rng.integers(1, nd + 1)))})
        kw["dim"] = tuple(dims) if rng.random() < 0.7 else dims
        if rng.random() < 0.1:
            kw["dim"] = ()
    if rng.random() < 0.5:
        kw["keepdim"] = True
    if kind in ("sum", "mean", "prod", "nansum", "nanmean", "cumsum", "cumprod", "norm") \
            and rng.random() < 0.4:
        kw["dtype"] = _pick(rng, ["float64", "float32", "int64", "complex128", "int32", "bool"])
    if kind in ("var", "std", "var_mean", "std_mean"):
        kw["correction"] = _pick(rng, [0, 1, 2, 0.5])
    if kind in ("cumsum", "cumprod", "logcumsumexp"):
        kw.pop("keepdim", None)
        kw["dim"] = int(rng.integers(-max(nd, 1), max(nd, 1)))
    if kind == "norm":
        kw["p"] = _pick(rng, [1, 2, 3, float("inf"), 0, "fro", -1])
    return [x], kw


REDUCE22 = ["sum", "mean", "prod", "nansum", "nanmean", "amax", "amin", "var", "std", "var_mean", "std_mean",
            "logsumexp", "norm", "count_nonzero", "any", "all", "cumsum", "cumprod", "logcumsumexp"]


def _reduce22(T, name, x, **kw):
    kw = _dt(T, kw)
    if name == "prod" and isinstance(kw.get("dim"), (tuple, list)):
        d = kw.pop("dim")
        if len(d) != 1:
            return T.prod(x, **kw) if not d else x
        kw["dim"] = d[0]
    if name == "norm" and "dim" in kw and isinstance(kw["dim"], list):
        kw["dim"] = tuple(kw["dim"])
    return getattr(T, name)(x, **kw)


for _n in REDUCE22:
    case("reduce22." + _n, (lambda t: lambda T, x, **kw: _reduce22(T, t, x, **kw))(_n),
         (lambda t: lambda rng: _reduce22_args(rng, t))(_n),
         second=_n in ("prod", "var", "std", "logsumexp", "norm", "cumprod"))

DISTS22 = {
    "Normal": lambda D, T, a, b: D.Normal(a, b.abs() + 0.1),
    "LogNormal": lambda D, T, a, b: D.LogNormal(a, b.abs() + 0.1),
    "Laplace": lambda D, T, a, b: D.Laplace(a, b.abs() + 0.1),
    "Cauchy": lambda D, T, a, b: D.Cauchy(a, b.abs() + 0.1),
    "Gumbel": lambda D, T, a, b: D.Gumbel(a, b.abs() + 0.1),
    "StudentT": lambda D, T, a, b: D.StudentT(b.abs() + 1.5, a, a.abs() + 0.2),
    "Uniform": lambda D, T, a, b: D.Uniform(T.minimum(a, b) - 0.1, T.maximum(a, b) + 0.1),
    "Exponential": lambda D, T, a, b: D.Exponential(a.abs() + 0.2),
    "Gamma": lambda D, T, a, b: D.Gamma(a.abs() + 0.3, b.abs() + 0.3),
    "Beta": lambda D, T, a, b: D.Beta(a.abs() + 0.3, b.abs() + 0.3),
    "Chi2": lambda D, T, a, b: D.Chi2(a.abs() + 0.5),
    "Dirichlet": lambda D, T, a, b: D.Dirichlet(a.abs() + 0.3),
    "Bernoulli_logits": lambda D, T, a, b: D.Bernoulli(logits=a),
    "Categorical_logits": lambda D, T, a, b: D.Categorical(logits=a),
    "Binomial": lambda D, T, a, b: D.Binomial(5, logits=a),
    "Poisson": lambda D, T, a, b: D.Poisson(a.abs() + 0.2),
    "Geometric": lambda D, T, a, b: D.Geometric(logits=a),
    "HalfNormal": lambda D, T, a, b: D.HalfNormal(a.abs() + 0.2),
    "Weibull": lambda D, T, a, b: D.Weibull(a.abs() + 0.3, b.abs() + 0.5),
    "Kumaraswamy": lambda D, T, a, b: D.Kumaraswamy(a.abs() + 0.5, b.abs() + 0.5),
    "VonMises": lambda D, T, a, b: D.VonMises(a, b.abs() + 0.2),
    "MultivariateNormal": lambda D, T, a, b: D.MultivariateNormal(
        a, scale_tril=T.diag_embed(b.abs() + 0.5) + T.tril(a.unsqueeze(-1) * b.unsqueeze(-2), -1) * 0.1),
    "LowRankMVN": lambda D, T, a, b: D.LowRankMultivariateNormal(a, b.unsqueeze(-1) * 0.5, a.abs() + 0.3),
    "ContinuousBernoulli": lambda D, T, a, b: D.ContinuousBernoulli(logits=a),
    "RelaxedBernoulli": lambda D, T, a, b: D.RelaxedBernoulli(T.tensor(0.7, dtype=a.dtype), logits=a),
    "Pareto": lambda D, T, a, b: D.Pareto(a.abs() + 0.5, b.abs() + 1.0),
    "InverseGamma": lambda D, T, a, b: D.InverseGamma(a.abs() + 0.5, b.abs() + 0.5),
    "NegativeBinomial": lambda D, T, a, b: D.NegativeBinomial(3.0, logits=a),
    "OneHotCategorical": lambda D, T, a, b: D.OneHotCategorical(logits=a),
}
DISCRETE22 = {"Bernoulli_logits", "Categorical_logits", "Binomial", "Poisson", "Geometric",
              "NegativeBinomial", "OneHotCategorical"}


def _dist_args(rng):
    dt = _pick(rng, FLOATS)
    shape = _pick(rng, [(3,), (2, 3), (1,)])
    return [draw_values(rng, dt, shape, edges=False), draw_values(rng, dt, shape, edges=False),
            int(rng.integers(0, 2 ** 31))], {}


def _dist22(T, name, what, a, b, seed):
    D = T.distributions
    d = DISTS22[name](D, T, a, b)
    if what == "log_prob":
        if name in DISCRETE22:  # fixed support points (samples of the two libraries' streams may differ)
            v = _support22(T, name, a)
        else:
            T.manual_seed(seed)
            v = d.sample((2,)).detach().clamp(-1e6, 1e6)
        return d.log_prob(v), d.mean if name not in ("Cauchy",) else d.mode
    if what == "entropy":
        return d.entropy()
    if what == "cdf":
        T.manual_seed(seed)
        v = d.sample().detach()
        return d.cdf(v), d.icdf(d.cdf(v).clamp(0.05, 0.95).detach())
    T.manual_seed(seed)
    return d.rsample((2,)), d.variance


def _support22(T, name, a):
    """Points of a discrete distribution's support, broadcasting against its batch shape."""
    c = a.shape[-1]
    ones = [1] * (a.dim() - 1)
    if name == "OneHotCategorical":
        return T.eye(c, dtype=a.dtype).reshape(c, *ones, c)
    n = {"Bernoulli_logits": 2, "Binomial": 6, "Categorical_logits": c}.get(name, 4)
    return T.arange(n, dtype=a.dtype if name != "Categorical_logits" else T.int64).reshape(n, *ones, 1) \
        if name != "Categorical_logits" else T.arange(n).reshape(n, *ones)


_NO_ENTROPY = {"StudentT_", "Kumaraswamy", "VonMises", "RelaxedBernoulli", "Weibull_"}
_RSAMPLE = {"Normal", "LogNormal", "Laplace", "Cauchy", "Gumbel", "StudentT", "Uniform", "Exponential",
            "Gamma", "Beta", "Chi2", "Dirichlet", "HalfNormal", "Weibull", "Kumaraswamy",
            "MultivariateNormal", "LowRankMVN", "ContinuousBernoulli", "RelaxedBernoulli",
            "Pareto", "InverseGamma"}
_CDF = {"Normal", "LogNormal", "Laplace", "Cauchy", "Gumbel", "Uniform", "Exponential", "HalfNormal",
        "ContinuousBernoulli", "Pareto"}
for _n in DISTS22:
    whats = ["log_prob"] + (["entropy"] if _n not in _NO_ENTROPY else []) + \
        (["rsample"] if _n in _RSAMPLE else []) + (["cdf"] if _n in _CDF else [])
    for _w in whats:
        case(f"dist22.{_n}.{_w}", (lambda n, w: lambda T, a, b, s: _dist22(T, n, w, a, b, s))(_n, _w),
             _dist_args, tol=20, second=_w == "log_prob" and _n in ("Normal", "Gamma", "Beta", "StudentT"))

SPECIAL22 = ["entr", "erfcx", "log_ndtr", "ndtr", "ndtri", "i0e", "i1", "i1e", "gammaln", "psi", "sinc",
             "bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "modified_bessel_i0",
             "modified_bessel_i1", "modified_bessel_k0", "modified_bessel_k1",
             "scaled_modified_bessel_k0", "scaled_modified_bessel_k1",
             "spherical_bessel_j0", "airy_ai", "expit", "exp2", "expm1", "log1p", "round", "logit", "erfinv"]
for _n in SPECIAL22:
    case("special22." + _n, (lambda t: lambda T, x: getattr(T.special, t)(x))(_n),
         unary(("float32", "float64", "int64", "bool")), second=_n in ("entr", "erfcx", "log_ndtr", "ndtr",
                                                                      "ndtri", "i0e", "i1", "i1e", "gammaln"),
         tol=20)
for _n in ("xlogy", "xlog1py", "zeta", "gammainc", "gammaincc"):
    case("special22." + _n, (lambda t: lambda T, x, y: getattr(T.special, t)(x, y))(_n),
         binary(("float32", "float64", "int64")), tol=20, second=_n in ("xlogy", "xlog1py"))
case("special22.polygamma", lambda T, n, x: T.special.polygamma(n, x),
     lambda rng: ([int(rng.integers(0, 4))] + unary(FLOATS)(rng)[0], {}), tol=20, second=True)
case("special22.multigammaln", lambda T, x, p: T.special.multigammaln(x, p),
     lambda rng: ([np.asarray(np.abs(draw_values(rng, _pick(rng, FLOATS), _pick(rng, SHAPES), edges=False))
                              + 1.6),
                   int(rng.integers(1, 4))], {}), tol=20, second=True)
case("special22.logsumexp", lambda T, x, d: T.special.logsumexp(x, d),
     lambda rng: ([draw_values(rng, _pick(rng, FLOATS), (2, 3)), _pick(rng, [0, 1, (0, 1), -1])], {}),
     second=True)
case("special22.softmax_dtype", lambda T, x, d: T.special.softmax(x, d, dtype=T.float64),
     lambda rng: ([draw_values(rng, "float32", (2, 3)), _pick(rng, [0, 1, -1])], {}), second=True)
for _n in ("chebyshev_polynomial_t", "hermite_polynomial_h", "laguerre_polynomial_l",
           "legendre_polynomial_p"):
    case("special22." + _n, (lambda t: lambda T, x, n: getattr(T.special, t)(x, n))(_n),
         lambda rng: ([draw_values(rng, _pick(rng, FLOATS), _pick(rng, SHAPES)),
                       _pick(rng, [0, 1, 3, 6, -1])], {}), tol=20)


# ---------------------------------------------------------------- round 25: new areas
# integer division, remainder and overflow; in-place writes through views of a tensor that
# requires grad; complex compositions; losses with every reduction at edge values

INTS25 = ("int8", "int16", "int32", "int64", "uint8")


def _int_pair25(rng, big=False):
    dt = _pick(rng, INTS25)
    shape = _pick(rng, [(3,), (2, 3), ()])
    info = np.iinfo(dt)
    lo, hi = (int(info.min), int(info.max)) if big else (max(int(info.min), -7), min(int(info.max), 7))
    a = rng.integers(lo, hi, shape, endpoint=True).astype(dt)
    b = rng.integers(lo, hi, _bcast_partner(rng, shape), endpoint=True).astype(_pick(rng, [dt, dt, "int64"]))
    return [np.asarray(a), np.asarray(b)], {}


for _m in (None, "floor", "trunc"):
    case(f"r25.int_div_{_m}", (lambda m: lambda T, a, b: T.div(a, b, rounding_mode=m))(_m), _int_pair25)
for _n in ("remainder", "fmod", "floor_divide"):
    case(f"r25.int_{_n}", (lambda n: lambda T, a, b: getattr(T, n)(a, b))(_n), _int_pair25)
for _n, _f in (("add", lambda T, a, b: a + b), ("mul", lambda T, a, b: a * b), ("sub", lambda T, a, b: a - b),
               ("neg", lambda T, a, b: -a), ("abs", lambda T, a, b: T.abs(a)),
               ("sum", lambda T, a, b: a.sum()), ("cumsum", lambda T, a, b: T.cumsum(a.flatten(), 0)),
               ("pow", lambda T, a, b: T.pow(a, 3))):
    case(f"r25.int_overflow_{_n}", _f, lambda rng: _int_pair25(rng, big=True))


def _view_write25(kind):
    def fn(T, x, w):
        y = x * 1
        if kind == "slice":
            y[..., 1:].mul_(w[..., 1:] if w.dim() else w)
        elif kind == "transpose":
            y.t().add_(w.t())
        elif kind == "diagonal":
            y.diagonal().mul_(w.diagonal())
        elif kind == "select":
            y.select(-1, 0).copy_(w.select(-1, 0) * 3)
        elif kind == "unsqueeze":
            y.unsqueeze(0).sub_(w)
        elif kind == "view_of_view":
            y.view(-1)[::2].div_(w.reshape(-1)[::2] + 5)
        return y
    return fn


for _k in ("slice", "transpose", "diagonal", "select", "unsqueeze", "view_of_view"):
    case(f"r25.view_write_{_k}", _view_write25(_k),
         lambda rng: ([draw_values(rng, d := _pick(rng, FLOATS), (2, 3)), draw_values(rng, d, (2, 3))], {}),
         second=True)

COMPLEX25 = ("complex64", "complex128")
for _n, _f in (("abs_angle", lambda T, z, u: T.abs(z) * T.angle(u)), ("sgn", lambda T, z, u: T.sgn(z) * u),
               ("conj_mul", lambda T, z, u: (z * u.conj()).real), ("div", lambda T, z, u: z / u),
               ("log_exp", lambda T, z, u: T.log(z) + T.exp(u)), ("sqrt", lambda T, z, u: T.sqrt(z) * u),
               ("real_imag", lambda T, z, u: T.real(z) * T.imag(u)), ("polar", lambda T, z, u: T.polar(
                   T.abs(z), T.angle(u))), ("vdot", lambda T, z, u: T.vdot(z.flatten(), u.flatten()))):
    case(f"r25.complex_{_n}", _f, lambda rng: ([draw_values(rng, d := _pick(rng, COMPLEX25), s := _pick(
        rng, [(3,), (2, 3)])), draw_values(rng, d, s)], {}), second=True)


def _loss25(rng):
    dt = _pick(rng, FLOATS)
    shape = _pick(rng, [(4,), (2, 3), (2, 0)])
    kw = {"reduction": _pick(rng, ["none", "mean", "sum"])}
    return [draw_values(rng, dt, shape), draw_values(rng, dt, shape)], kw


for _n in ("l1_loss", "mse_loss", "huber_loss", "smooth_l1_loss", "soft_margin_loss",
           "binary_cross_entropy_with_logits", "poisson_nll_loss", "gaussian_nll_loss_var1"):
    _fn = (lambda T, x, t, **kw: T.nn.functional.gaussian_nll_loss(x, t, T.ones_like(x), **kw)) \
        if _n == "gaussian_nll_loss_var1" else (lambda n: lambda T, x, t, **kw: getattr(T.nn.functional, n)(
            x, t, **kw))(_n)
    case(f"r25.loss_{_n}", _fn, _loss25, second=True)



# ---------------------------------------------------------------- running and comparing

def _to_module(T, v, grad: bool):
    """A drawn value as a tensor of module ``T`` (numpy arrays; lists elementwise)."""
    if isinstance(v, np.ndarray):
        t = T.tensor(v)
        if grad and v.dtype.kind in "fc":
            t.requires_grad_(True)
        return t
    if isinstance(v, list):
        return [_to_module(T, e, grad) for e in v]
    return v


def _leaves(out):
    if isinstance(out, (tuple, list)):
        return [x for o in out for x in _leaves(o)]
    return [out]


def _host(v):
    """(kind, dtype name, shape, numpy values) of one result leaf."""
    if hasattr(v, "detach") and hasattr(v, "dtype"):
        v = v.detach()
        if v.is_conj():
            v = v.resolve_conj()
        if v.is_neg():
            v = v.resolve_neg()
        name = str(v.dtype).replace("torch.", "")
        if name == "bfloat16":  # NumPy has no bfloat16: compare its float32 values
            v = v.float()
        try:
            host = v.numpy(force=True)  # torch's zero tensors (gradients) need force
        except TypeError:
            host = v.numpy()
        return "tensor", name, tuple(v.shape), np.asarray(host)
    return type(v).__name__, type(v).__name__, (), np.asarray(v)


TOL = {"float32": 2e-5, "complex64": 2e-5, "float64": 1e-10, "complex128": 1e-10, "float16": 2e-3,
       "bfloat16": 1e-2}


def _value_gap(t: np.ndarray, f: np.ndarray, rtol: float) -> str | None:
    """None when the values agree (NaN where NaN, infinities of the same sign, the rest within
    ``rtol`` relative to the larger of the element and the array's largest finite value times
    ``rtol``)."""
    if t.dtype.kind not in "fc":
        return None if np.array_equal(t, f) else _where_differs(t, f, t != f)
    with np.errstate(invalid="ignore", over="ignore"):
        return _float_gap(t, f, rtol)


def _float_gap(t, f, rtol):
    t64, f64 = t.astype(np.complex128).ravel(), f.astype(np.complex128).ravel()
    nan_t, nan_f = np.isnan(t64), np.isnan(f64)
    bad = nan_t != nan_f
    inf_t = np.isinf(t64)
    bad |= ~nan_t & ~nan_f & (inf_t | np.isinf(f64)) & (t64 != f64)
    fin = np.isfinite(t64) & np.isfinite(f64)
    scale = np.max(np.abs(t64[fin])) if fin.any() else 0.0
    gap = np.where(fin, np.abs(t64 - f64), 0.0)
    bad |= gap > rtol * np.abs(t64) + rtol * 1e-2 * max(scale, 1.0)
    return _where_differs(t, f, bad.reshape(t.shape)) if bad.any() else None


def _where_differs(t, f, bad):
    k = int(np.argmax(np.asarray(bad).ravel()))
    return f"at {k}: fgrad {f.ravel()[k]!r}, torch {t.ravel()[k]!r}"


def compare(tout, fout, tol: float = 1.0, what: str = "value", least: float = 0.0) -> str | None:
    """What differs between torch's and fgrad's results (None: nothing); float tolerances are
    ``tol`` times the dtype's, and at least ``least`` (the inputs' precision)."""
    tl, fl = _leaves(tout), _leaves(fout)
    if len(tl) != len(fl):
        return f"{what}: {len(fl)} outputs, torch {len(tl)}"
    for j, (a, b) in enumerate(zip(tl, fl)):
        if a is None or b is None:
            if (a is None) != (b is None):
                return f"{what}[{j}]: fgrad {'None' if b is None else 'a tensor'}, torch {type(a).__name__}"
            continue
        tk, td, ts, tv = _host(a)
        fk, fd, fs, fv = _host(b)
        if tk != fk and not (tk in ("int", "bool", "float") and fk in ("int", "bool", "float")):
            return f"{what}[{j}]: fgrad returned {fk}, torch {tk}"
        if td != fd:
            return f"{what}[{j}] dtype: fgrad {fd}, torch {td}"
        if ts != fs or tv.shape != fv.shape:
            return f"{what}[{j}] shape: fgrad {fs or fv.shape}, torch {ts or tv.shape}"
        gap = _value_gap(tv, fv, max(TOL.get(td, 1e-10), least) * tol)
        if gap:
            return f"{what}[{j}] values differ {gap}"
    return None


def _same_error(terr: BaseException, ferr: BaseException) -> bool:
    names = {c.__name__ for c in type(ferr).__mro__}
    return isinstance(ferr, type(terr)) or type(terr).__name__ in names


def _call(T, c: Case, args, kw, grad: bool):
    targs = [_to_module(T, a, grad) for a in args]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = c.fn(T, *targs, **kw)
            err = None
        except Exception as e:  # noqa: BLE001 - compared by type
            out, err = None, e
    return targs, out, err, [str(w.message)[:80] for w in caught]


def _weights(T, out, rng_seed):
    """Random weights for each differentiable result leaf (the same numbers on both sides)."""
    rng = np.random.default_rng(rng_seed)
    ws = []
    for o in _leaves(out):
        if hasattr(o, "requires_grad") and o.requires_grad:
            w = rng.standard_normal(tuple(o.shape))
            if o.is_complex():
                w = w + 1j * rng.standard_normal(tuple(o.shape))
            ws.append(T.tensor(w).to(o.dtype))  # (through float64: NumPy has no bfloat16 for torch)
        else:
            ws.append(None)
    return ws


def _weighted_sum(T, out, ws):
    total = None
    for o, w in zip(_leaves(out), ws):
        if w is None:
            continue
        term = (o * w).sum()
        term = term.real if term.is_complex() else term
        total = term if total is None else total + term
    return total


def _grads(T, targs, out, seed, second):
    inputs = [a for a in _leaves(targs) if hasattr(a, "requires_grad") and a.requires_grad]
    if not inputs:
        return None
    ws = _weights(T, out, seed)
    loss = _weighted_sum(T, out, ws)
    if loss is None:
        return None
    g = T.autograd.grad(loss, inputs, allow_unused=True, create_graph=second)
    g = [T.zeros_like(x) if gi is None else gi for x, gi in zip(inputs, g)]
    if not second:
        return g, None
    rng = np.random.default_rng(seed + 1)
    s = None
    for gi in g:
        if gi.requires_grad:
            v = T.tensor(rng.standard_normal(tuple(gi.shape))).to(gi.dtype)
            term = (gi * v).sum()
            term = term.real if term.is_complex() else term
            s = term if s is None else s + term
    if s is None:  # no gradient depends on the inputs: the second derivative is zero
        return g, [T.zeros_like(x) for x in inputs]
    g2 = T.autograd.grad(s, inputs, allow_unused=True)
    return g, [T.zeros_like(x) if gi is None else gi for x, gi in zip(inputs, g2)]


def _stage(found, label, tfn, ffn):
    """Run one stage on both sides; record an exception-type difference. Returns
    (torch result, fgrad result, ok)."""
    try:
        t = tfn()
        terr = None
    except Exception as e:  # noqa: BLE001
        t, terr = None, e
    try:
        f = ffn()
        ferr = None
    except Exception as e:  # noqa: BLE001
        f, ferr = None, e
    if terr is None and ferr is None:
        return t, f, True
    _record_errors(found, label, terr, ferr)
    return t, f, False


def _record_errors(found, label, terr, ferr):
    """Record a difference when only one side raised or the exception types differ."""
    if terr is None:
        found.append((label, f"fgrad raised {type(ferr).__name__}: {str(ferr)[:100]}"))
    elif ferr is None:
        found.append((label, f"torch raised {type(terr).__name__}, fgrad returned ({str(terr)[:90]!r})"))
    elif not _same_error(terr, ferr):
        found.append((label, f"fgrad raised {type(ferr).__name__}, torch {type(terr).__name__}"
                             f" ({str(terr)[:60]!r})"))


def run_case(c: Case, draw_seed: int, torch, ft, second: bool = True) -> list[tuple[str, str]]:
    """The differences of one draw of one case: (stage, description) pairs."""
    rng = np.random.default_rng(draw_seed)
    args, kw = c.make(rng)
    found: list[tuple[str, str]] = []
    # forward, with grad-requiring inputs
    targs, tout, terr, _ = _call(torch, c, args, kw, c.grad)
    fargs, fout, ferr, fwarn = _call(ft, c, args, kw, c.grad)
    if terr is not None or ferr is not None:
        _record_errors(found, "forward", terr, ferr)
        return found
    twarn = _call(torch, c, args, kw, c.grad)[3]
    if fwarn and not twarn:
        found.append(("warning", f"fgrad warned, torch did not: {fwarn[0]}"))
    # a float64 result or gradient may be computed from float32 inputs in float32 by torch
    least = max([TOL.get(a.dtype.name, 0.0) for a in _leaves(args) if isinstance(a, np.ndarray)] + [0.0])
    d = compare(tout, fout, c.tol, least=least)
    if d:
        found.append(("forward", d))
        return found
    tr = [getattr(o, "requires_grad", None) for o in _leaves(tout)]
    fr = [getattr(o, "requires_grad", None) for o in _leaves(fout)]
    if tr != fr:
        found.append(("requires_grad", f"fgrad {fr}, torch {tr}"))
        return found
    if c.grad:
        do2 = second and c.second
        tg, fg, ok = _stage(found, "grad", lambda: _grads(torch, targs, tout, draw_seed, do2),
                            lambda: _grads(ft, fargs, fout, draw_seed, do2))
        if ok and (tg is None) != (fg is None):
            found.append(("grad", f"fgrad {'no' if fg is None else 'a'} gradient, "
                                  f"torch {'no' if tg is None else 'a'}"))
        elif ok and tg is not None:
            d = compare(tg[0], fg[0], c.tol * 5, "grad", least)
            if d:
                found.append(("grad", d))
            elif tg[1] is not None or fg[1] is not None:
                d = compare(tg[1] or [], fg[1] or [], c.tol * 20, "grad2", least)
                if d:
                    found.append(("grad2", d))
    if c.alias:
        _check_alias(found, c, args, kw, torch, ft)
    if c.inplace:
        _check_inplace(found, c, args, kw, torch, ft, draw_seed, least)
    return found


def _check_alias(found, c, args, kw, torch, ft):
    """A later in-place write to the first input shows in the result iff it does in torch;
    ``_base`` and the version counter agree."""
    def go(T):
        targs = [_to_module(T, a, False) for a in args]
        out = c.fn(T, *targs, **kw)
        x = targs[0]
        if x.dtype == T.bool:
            x.logical_not_()
        else:
            x.add_(1)
        leaves = [o for o in _leaves(out) if hasattr(o, "_version")]
        return ([o.clone() for o in leaves], [o._version for o in leaves], [o._base is x for o in leaves])
    t, f, ok = _stage(found, "alias", lambda: go(torch), lambda: go(ft))
    if not ok:
        return
    d = compare(t[0], f[0], c.tol, "after a write to the input")
    if d:
        found.append(("alias", d))
    elif t[1] != f[1]:
        found.append(("alias", f"_version of results fgrad {f[1]}, torch {t[1]}"))
    elif t[2] != f[2]:
        found.append(("alias", f"_base is the input: fgrad {f[2]}, torch {t[2]}"))


def _check_inplace(found, c, args, kw, torch, ft, seed, least):
    """``x.clone().<op_>(*rest)`` against the out-of-place result on torch, on plain tensors
    (returns self, bumps the version) and on a non-leaf that requires grad (gradients)."""
    def plain(T):
        targs = [_to_module(T, a, False) for a in args]
        x = targs[0] if hasattr(targs[0], "clone") else T.tensor(targs[0])
        y = x.clone()
        v0 = y._version
        r = _inplace_call(c, y, targs[1:], kw)
        return y.clone(), r is y, y._version > v0

    t, f, ok = _stage(found, "inplace", lambda: plain(torch), lambda: plain(ft))
    if not ok:
        return
    d = compare(t[0], f[0], c.tol, "inplace")
    if d:
        found.append(("inplace", d))
        return
    if t[1:] != f[1:]:
        found.append(("inplace", f"(returns self, bumps version): fgrad {f[1:]}, torch {t[1:]}"))
        return
    if not isinstance(args[0], np.ndarray) or args[0].dtype.kind not in "fc":
        return

    def graded(T):
        targs = [_to_module(T, a, True) for a in args]
        y = targs[0] * 1
        r = _inplace_call(c, y, targs[1:], kw)
        return _grads(T, targs, r, seed, False)
    t, f, ok = _stage(found, "inplace_grad", lambda: graded(torch), lambda: graded(ft))
    if ok and t is not None and f is not None:
        d = compare(t[0], f[0], c.tol * 5, "inplace grad", least)
        if d:
            found.append(("inplace_grad", d))


def _inplace_call(c, y, rest, kw):
    if callable(c.inplace):
        return c.inplace(y, *rest, **kw)
    return getattr(y, c.inplace)(*rest, **kw)


def fuzz(only=None, draws: int = 4, seed: int = 0, second: bool = True, verbose: bool = False):
    """Run every case (or those in ``only``) for ``draws`` draws: ``{case: [(stage, what), ...]}``."""
    import torch

    import fgrad.torch as ft
    results: dict[str, list] = collections.defaultdict(list)
    for ci, c in enumerate(CASES):
        if only and c.name not in only:
            continue
        for k in range(draws):
            draw_seed = seed * 1_000_003 + ci * 1009 + k
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    diffs = run_case(c, draw_seed, torch, ft, second)
                except Exception as e:  # noqa: BLE001 - a harness failure is reported, the run goes on
                    diffs = [("harness", f"{type(e).__name__}: {str(e)[:120]}")]
            for stage, what in diffs:
                results[c.name].append((stage, what, draw_seed))
                if verbose:
                    print(f"{c.name} [seed {draw_seed}] {stage}: {what}")
    return results


def summarize(results) -> str:
    """The differences grouped by case, then by stage (counting draws), with one example."""
    lines = []
    total = 0
    for name in sorted(results):
        by_stage = collections.defaultdict(list)
        for stage, what, s in results[name]:
            by_stage[stage].append((what, s))
        for stage, items in sorted(by_stage.items()):
            total += len(items)
            lines.append(f"{name:28s} {stage:13s} x{len(items)}  e.g. [seed {items[0][1]}] {items[0][0]}")
    lines.append(f"{total} difference(s) in {len(results)} case(s)")
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", default="", help="comma-separated case names")
    p.add_argument("--draws", type=int, default=4, help="random draws per case")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--no-second", action="store_true", help="skip second-order gradients")
    p.add_argument("--verbose", action="store_true", help="print each difference as found")
    p.add_argument("--list", action="store_true", help="list the case names and exit")
    p.add_argument("--show", default="", metavar="CASE:SEED", help="print the inputs of one draw and exit")
    a = p.parse_args(argv)
    if a.list:
        print(" ".join(c.name for c in CASES))
        return 0
    if a.show:
        name, draw_seed = a.show.rsplit(":", 1)
        c = next(c for c in CASES if c.name == name)
        args, kw = c.make(np.random.default_rng(int(draw_seed)))
        for v in args:
            print(repr(v))
        print(kw)
        return 0
    only = set(filter(None, a.only.split(",")))
    results = fuzz(only, a.draws, a.seed, not a.no_second, a.verbose)
    print(summarize(results))
    return 1 if results else 0


if __name__ == "__main__":
    sys.exit(main())
