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
        try:
            host = v.numpy(force=True)  # torch's zero tensors (gradients) need force
        except TypeError:
            host = v.numpy()
        return "tensor", str(v.dtype).replace("torch.", ""), tuple(v.shape), np.asarray(host)
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
            ws.append(T.tensor(w.astype(str(o.dtype).replace("torch.", ""))))
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
            v = T.tensor(rng.standard_normal(tuple(gi.shape)).astype(str(gi.dtype).replace("torch.", "")))
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
