"""The op table: one row per public op (or per op configuration), shared by every per-op test.

A row (`OpRow`) says how to call the fgrad function, what NumPy function it must agree
with, which inputs are valid (domains, points to keep away from for gradients), which
shapes and static keyword arguments to try (as hypothesis strategies), which dtypes, the
tolerances, and whether the op is differentiable.  tests/test_op_table.py turns every row
into: forward vs NumPy (hypothesis over shapes, values and dtypes), gradients vs finite
differences (orders 1 and 2, forward and reverse mode), vmap vs a Python loop (several
in_axes, also of the op's jvp and vjp), and dtype preservation.  tests/test_registry.py
checks that every primitive is reached by some row.

Adding an op is usually one line::

    ROWS += [unary("sin"), binary("hypot", valid=away_from_origin)]

or, for anything unusual, an explicit `OpRow(...)` with a ``make_args`` hook that builds
the inputs (structured matrices, index arrays that must fit another argument's shape, ...).

Conventions: ``fn(*arrays, **kwargs)`` and ``ref(*numpy_arrays, **kwargs)`` take the same
arguments; static arguments (axis, shapes, ...) are keyword arguments drawn by ``kwargs``
(a function of the drawn shapes returning a strategy of dicts).  Outputs may be pytrees
(tuples/lists) of arrays.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fgrad
import fgrad.numpy as fnp
from fgrad.core.trace import Trace

F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
FLOATS = (F32, F64)
INTS = (np.dtype(np.int32), np.dtype(np.int64))
BOOL = np.dtype(np.bool_)

# --------------------------------------------------------------------------------------
# inputs


def near_integer(v):
    """Distance to the nearest integer (kinks of floor/ceil/trunc/mod)."""
    return np.abs(v - np.round(v))


def near_half_integer(v):
    """Distance to the nearest k + 1/2 (kinks of round)."""
    return np.abs(v - np.floor(v) - 0.5)


@dataclasses.dataclass(frozen=True)
class Arg:
    """One array argument.

    ``kind``: ``"float"`` (values uniform in ``[lo, hi]``), ``"int"`` (integer values in
    ``[lo, hi]``, also for float dtypes: ties and exact zeros),
``"bool"``, or ``"distinct"`` (floats in ``[lo, hi]`` pairwise well separated: no ties,
    for max/sort-like ops).  ``avoid``: points (or a function giving the distance to the
    nearest kink) that gradient inputs keep ``margin`` away from.  ``dtype`` fixes the
    dtype (e.g. int64 for indices); by default an argument takes the row's dtype under
    test.  ``diff``: whether gradients are checked with respect to this argument.
    """

    lo: float = -2.0
    hi: float = 2.0
    kind: str = "float"
    avoid: Any = ()
    margin: float = 0.05
    dtype: Any = None
    diff: bool = True

    def dtype_for(self, row_dtype) -> np.dtype:
        if self.kind == "bool":
            return BOOL
        if self.dtype is not None:
            return np.dtype(self.dtype)
        return np.dtype(row_dtype)

    def _dist(self, v):
        if callable(self.avoid):
            return self.avoid(v)
        if not self.avoid:
            return np.full(np.shape(v), np.inf)
        return np.min([np.abs(v - p) for p in self.avoid], axis=0)

    def sample(self, rng: np.random.Generator, shape, row_dtype) -> np.ndarray:
        """Well-conditioned random values (for gradient and vmap tests)."""
        dt = self.dtype_for(row_dtype)
        shape = tuple(shape)
        if dt == BOOL:
            return rng.random(shape) < 0.5
        if dt.kind in "iub" or self.kind == "int":
            lo, hi = math.ceil(self.lo), math.floor(self.hi)
            v = rng.integers(lo, hi + 1, size=shape)
            if self.avoid and not callable(self.avoid):
                for _ in range(100):
                    bad = np.isin(v, np.asarray(self.avoid))
                    if not bad.any():
                        break
                    v[bad] = rng.integers(lo, hi + 1, size=int(bad.sum()))
            return v.astype(dt)
        if self.kind == "distinct":
            n = int(np.prod(shape, dtype=np.int64))
            step = (self.hi - self.lo) / max(n, 1)
            v = self.lo + (rng.permutation(n) + rng.uniform(0.25, 0.75, n)) * step
            return v.reshape(shape).astype(dt)
        v = rng.uniform(self.lo, self.hi, size=shape)
        for _ in range(100):
            bad = self._dist(v) < self.margin
            if not np.any(bad):
                break
            v = np.where(bad, rng.uniform(self.lo, self.hi, size=shape), v)
        return np.asarray(v).astype(dt)

    def strategy(self, shape, row_dtype, specials: bool = False):
        """Hypothesis strategy for forward tests (edge values allowed: ties, bounds, 0)."""
        dt = self.dtype_for(row_dtype)
        if dt == BOOL:
            return hnp.arrays(BOOL, shape, elements=st.booleans())
        if dt.kind in "iu" or self.kind == "int":
            lo, hi = math.ceil(self.lo), math.floor(self.hi)
            elems = st.integers(lo, hi)
            if self.avoid and not callable(self.avoid):
                elems = elems.filter(lambda i: i not in self.avoid)
            return hnp.arrays(dt, shape, elements=elems)
        if self.kind == "distinct":
            return st.integers(0, 2**32 - 1).map(
                lambda s: self.sample(np.random.default_rng(s), shape, dt))
        width = 32 if dt == F32 else 64
        lo = float(np.nextafter(np.asarray(self.lo, dt), np.asarray(np.inf, dt)))
        hi = float(np.nextafter(np.asarray(self.hi, dt), np.asarray(-np.inf, dt)))
        elems = st.floats(lo, hi, width=width, allow_nan=False, allow_infinity=False)
        if specials:
            elems = st.one_of(elems, st.sampled_from([np.nan, np.inf, -np.inf, -0.0]))
        return hnp.arrays(dt, shape, elements=elems)


# --------------------------------------------------------------------------------------
# shapes and static arguments


def shapes_of(nargs: int, min_dims=0, max_dims=3, min_side=1, max_side=4):
    """All arguments share one random shape."""
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side,
                            max_side=max_side).map(lambda s: (s,) * nargs)


def broadcast_shapes_of(nargs: int, min_dims=0, max_dims=3, min_side=1, max_side=4):
    """Mutually broadcastable shapes (different ranks, size-1 dimensions)."""
    return hnp.mutually_broadcastable_shapes(
        num_shapes=nargs, min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side
    ).map(lambda r: tuple(r.input_shapes))


def axis_kwargs(allow_none=True, allow_tuple=True, keepdims=True, min_rank=0):
    """``shapes -> strategy`` of ``{"axis": ..., "keepdims": ...}`` for a reduction."""

    def make(shapes):
        nd = len(shapes[0])
        opts = []
        if allow_none:
            opts.append(st.none())
        if nd:
            opts.append(st.integers(-nd, nd - 1))
            if allow_tuple:
                opts.append(st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True)
                            .map(lambda ax: tuple(a - nd if i % 2 else a for i, a in enumerate(ax))))
        axis = st.one_of(*opts) if opts else st.none()
        kd = st.booleans() if keepdims else st.just(False)
        return st.fixed_dictionaries({"axis": axis, "keepdims": kd})

    return make


def one_axis_kwargs(keepdims=False):
    """``{"axis": int}`` (every rank >= 1)."""

    def make(shapes):
        nd = len(shapes[0])
        d = {"axis": st.integers(-nd, nd - 1)}
        if keepdims:
            d["keepdims"] = st.booleans()
        return st.fixed_dictionaries(d)

    return make


# --------------------------------------------------------------------------------------
# rows


@dataclasses.dataclass(frozen=True, repr=False)
class OpRow:
    """One op (configuration) of the table.  See the module docstring.

    ``grad``: ``"yes"`` (check derivatives against finite differences), ``"zero"``
    (piecewise constant: derivatives are zero away from the kinks, also checked against
    finite differences), ``"no"`` (non-float output: only check that jvp/vjp run and give
    zeros), ``"skip"`` (no gradient test, e.g. inputs with ties).  ``other_dtypes``:
    integer/bool dtypes also tested forward and under vmap.
    ``valid(np_args, kwargs) -> bool`` rejects gradient inputs (e.g. near a kink involving
    several arguments); rejected inputs are redrawn.  ``make_args(rng, shapes, kwargs,
    dtype) -> list`` replaces the per-`Arg` generator entirely.  ``covers``: the public
    names (``"numpy.sum"``, ``"nn.relu"``, ``"numpy.linalg.inv"``) this row tests.
    ``fwd_tol``: ``{dtype: (atol, rtol)}`` for forward comparisons; ``grad_tol``:
    ``(atol, rtol)`` for float64 gradient checks (float32 uses check_grads' defaults
    scaled by ``f32_grad_scale``).
    """

    name: str
    fn: Callable
    ref: Callable
    args: tuple = (Arg(),)
    shapes: Any = None
    example_shapes: tuple | None = None
    kwargs: Callable | None = None
    example_kwargs: dict = dataclasses.field(default_factory=dict)
    dtypes: tuple = FLOATS
    other_dtypes: tuple = ()
    grad: str = "yes"
    order: int = 2
    modes: tuple = ("fwd", "rev")
    fwd_tol: dict | None = None
    grad_tol: tuple | None = None
    f32_grad_scale: float = 1.0
    eps: float | None = None
    vmap: bool = True
    valid: Callable | None = None
    make_args: Callable | None = None
    covers: tuple = ()
    specials: bool = False
    flags: frozenset = frozenset()

    def __repr__(self) -> str:
        return f"<op table row {self.name}>"

    @property
    def nargs(self) -> int:
        return len(self.args)

    @property
    def public_names(self) -> tuple:
        return self.covers or ("numpy." + self.name.split("[")[0],)

    def shape_strategy(self):
        if self.shapes is not None:
            return self.shapes
        return shapes_of(self.nargs)

    def get_example_shapes(self) -> tuple:
        if self.example_shapes is not None:
            return self.example_shapes
        return ((3, 2),) * self.nargs

    def kwargs_strategy(self, shapes):
        return st.just({}) if self.kwargs is None else self.kwargs(shapes)

    def forward_tol(self, dtype) -> tuple[float, float]:
        dtype = np.dtype(dtype)
        if self.fwd_tol and dtype in self.fwd_tol:
            return self.fwd_tol[dtype]
        if dtype == F32:
            return 1e-6, 2e-6
        if dtype.kind == "f":
            return 1e-13, 1e-12
        return 0, 0

    def sample_args(self, rng: np.random.Generator, shapes, kwargs, dtype, check_valid=True) -> list:
        """Random well-conditioned numpy inputs (redrawn until ``valid``)."""
        for _ in range(200):
            if self.make_args is not None:
                vals = list(self.make_args(rng, shapes, kwargs, np.dtype(dtype)))
            else:
                vals = [a.sample(rng, s, dtype) for a, s in zip(self.args, shapes, strict=False)]
            if not check_valid or self.valid is None or self.valid(vals, kwargs):
                return vals
        raise RuntimeError(f"op table row {self.name}: could not draw valid inputs for shapes {shapes}")

    def call(self, args, kwargs):
        return self.fn(*args, **kwargs)

    def call_ref(self, np_args, kwargs):
        return self.ref(*np_args, **kwargs)

    def diff_argnums(self, dtype) -> tuple:
        return tuple(i for i, a in enumerate(self.args)
                     if a.diff and a.kind in ("float", "distinct") and a.dtype_for(dtype).kind == "f")


def unary(name, fn=None, ref=None, lo=-2.0, hi=2.0, avoid=(), **kw) -> OpRow:
    base = name.split("[")[0]
    return OpRow(
        name=name, fn=fn or getattr(fnp, base), ref=ref or getattr(np, base),
        args=(Arg(lo, hi, avoid=avoid),),
        shapes=kw.pop("shapes", shapes_of(1, min_side=0)), example_shapes=((3, 2),), **kw,
    )


def binary(name, fn=None, ref=None, args=(Arg(), Arg()), **kw) -> OpRow:
    base = name.split("[")[0]
    return OpRow(
        name=name, fn=fn or getattr(fnp, base), ref=ref or getattr(np, base), args=tuple(args),
        shapes=kw.pop("shapes", broadcast_shapes_of(len(args))),
        example_shapes=kw.pop("example_shapes", ((3, 2), (2,))), **kw,
    )


def reduction(name, fn=None, ref=None, arg=Arg(), kwargs=None, **kw) -> OpRow:
    base = name.split("[")[0]
    return OpRow(
        name=name, fn=fn or getattr(fnp, base), ref=ref or getattr(np, base), args=(arg,),
        shapes=kw.pop("shapes", shapes_of(1, min_dims=0, max_dims=3)),
        kwargs=kwargs or axis_kwargs(), example_shapes=((3, 4),),
        example_kwargs=kw.pop("example_kwargs", {"axis": 1, "keepdims": False}), **kw,
    )


def _far_apart(a, b, gap=0.02):
    return bool(np.all(np.abs(np.subtract(*np.broadcast_arrays(a, b))) > gap))


def valid_not_tied(vals, kwargs):
    """Binary min/max-like ops: the operands are never (nearly) equal."""
    return _far_apart(vals[0], vals[1])


def valid_mod(vals, kwargs):
    """mod/fmod/floor_divide: x / y stays away from integers (where the op jumps)."""
    q = np.asarray(vals[0], np.float64) / np.asarray(vals[1], np.float64)
    return bool(np.all(near_integer(q) > 0.02))


ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# elementwise unary math

ROWS += [
    unary("exp"), unary("exp2"), unary("expm1"),
    unary("log", lo=0.1, hi=4.0), unary("log2", lo=0.1, hi=4.0), unary("log10", lo=0.1, hi=4.0),
    unary("log1p", lo=-0.9, hi=3.0),
    unary("sqrt", lo=0.1, hi=4.0), unary("cbrt", avoid=(0.0,)),
    unary("square"), unary("reciprocal", avoid=(0.0,)), unary("negative"), unary("positive"),
    unary("sin", lo=-4, hi=4), unary("cos", lo=-4, hi=4), unary("tan", lo=-1.3, hi=1.3),
    unary("arcsin", lo=-0.9, hi=0.9), unary("arccos", lo=-0.9, hi=0.9), unary("arctan", lo=-4, hi=4),
    unary("sinh"), unary("cosh"), unary("tanh", lo=-3, hi=3),
    unary("arcsinh", lo=-4, hi=4), unary("arccosh", lo=1.1, hi=4.0), unary("arctanh", lo=-0.9, hi=0.9),
    unary("abs", avoid=(0.0,)),
    unary("sign", avoid=(0.0,), grad="zero"),
    unary("floor", lo=-3, hi=3, avoid=near_integer, grad="zero"),
    unary("ceil", lo=-3, hi=3, avoid=near_integer, grad="zero"),
    unary("trunc", lo=-3, hi=3, avoid=near_integer, grad="zero"),
    unary("rint", lo=-3, hi=3, avoid=near_half_integer, grad="zero"),
    unary("round", lo=-3, hi=3, avoid=near_half_integer, grad="zero"),
    unary("round[decimals=1]", fn=lambda x: fnp.round(x, 1), ref=lambda x: np.round(x, 1), lo=-3, hi=3,
          avoid=lambda v: near_half_integer(v * 10) / 10, grad="zero", covers=("numpy.round",)),
    unary("deg2rad"), unary("rad2deg"),
    unary("sinc", lo=-3, hi=3, fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    unary("real"), unary("imag", grad="zero"), unary("conjugate"),
    unary("isnan", grad="no", specials=True), unary("isinf", grad="no", specials=True),
    unary("isfinite", grad="no", specials=True), unary("signbit", grad="no", specials=True),
    unary("nan_to_num", specials=True),
    unary("logical_not", grad="no", other_dtypes=(BOOL,)),
    unary("astype[float32]", fn=lambda x: fnp.astype(x, np.float32), ref=lambda x: x.astype(np.float32),
          covers=("numpy.astype",), f32_grad_scale=1.0),
    unary("astype[float64]", fn=lambda x: fnp.astype(x, np.float64), ref=lambda x: x.astype(np.float64),
          covers=("numpy.astype",)),
    unary("astype[int32]", fn=lambda x: fnp.astype(x, np.int32), ref=lambda x: x.astype(np.int32),
          covers=("numpy.astype",), grad="no", lo=-50, hi=50),
    unary("power[x**2]", fn=lambda x: fnp.power(x, 2), ref=lambda x: np.power(x, 2), covers=("numpy.power",)),
    unary("power[x**3]", fn=lambda x: x ** 3, ref=lambda x: x ** 3, covers=("numpy.power",)),
    unary("power[x**0.5]", fn=lambda x: x ** 0.5, ref=lambda x: x ** 0.5, lo=0.1, hi=3,
          covers=("numpy.power",)),
    unary("power[x**-1.5]", fn=lambda x: fnp.power(x, -1.5), ref=lambda x: np.power(x, -1.5), lo=0.2, hi=3,
          covers=("numpy.power",)),
    unary("power[2**x]", fn=lambda x: fnp.power(2.0, x), ref=lambda x: np.power(2.0, x),
          covers=("numpy.power",)),
    unary("clip", fn=lambda x: fnp.clip(x, -0.5, 0.7), ref=lambda x: np.clip(x, -0.5, 0.7),
          avoid=(-0.5, 0.7)),
    unary("clip[lo]", fn=lambda x: fnp.clip(x, -0.5), ref=lambda x: np.clip(x, -0.5, None), avoid=(-0.5,),
          covers=("numpy.clip",)),
]

# Integer inputs through unary ops that accept them (forward and vmap only).
ROWS += [
    unary(f"{n}[int]", fn=getattr(fnp, n), ref=getattr(np, n), lo=-5, hi=5, dtypes=(), other_dtypes=INTS,
          covers=(f"numpy.{n}",))
    for n in ("abs", "negative", "sign", "square", "exp")
]
ROWS += [unary("invert", lo=-9, hi=9, dtypes=(), other_dtypes=INTS + (BOOL,), grad="no")]

# --------------------------------------------------------------------------------------
# elementwise binary math

_pos = Arg(0.3, 3.0)
_nonzero = Arg(-3.0, 3.0, avoid=(0.0,), margin=0.3)

ROWS += [
    binary("add"), binary("subtract"), binary("multiply"),
    binary("divide", args=(Arg(), _nonzero)), binary("true_divide", args=(Arg(), _nonzero)),
    binary("power", args=(_pos, Arg())),
    binary("maximum", valid=valid_not_tied, specials=True),
    binary("minimum", valid=valid_not_tied, specials=True),
    binary("fmax", valid=valid_not_tied, specials=True),
    binary("fmin", valid=valid_not_tied, specials=True),
    binary("arctan2", args=(Arg(), _nonzero)),
    binary("hypot", args=(_nonzero, _nonzero)),
    binary("logaddexp"), binary("logaddexp2", fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    binary("mod", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("remainder", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("fmod", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("floor_divide", args=(Arg(-4, 4), _nonzero), valid=valid_mod, grad="zero"),
    binary("divmod", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("copysign", args=(_nonzero, _nonzero)),
    binary("heaviside", args=(Arg(avoid=(0.0,)), Arg()), grad="zero"),
    binary("arctan2[quadrants]", fn=fnp.arctan2, ref=np.arctan2, args=(_nonzero, _nonzero),
           covers=("numpy.arctan2",)),
]

_int_arg = Arg(-9, 9)
_int_nonzero = Arg(-9, 9, avoid=(0,))
ROWS += [
    binary(f"{n}[int]", fn=getattr(fnp, n), ref=getattr(np, n), args=args, dtypes=(), other_dtypes=INTS,
           covers=(f"numpy.{n}",))
    for n, args in [
        ("add", (_int_arg, _int_arg)), ("subtract", (_int_arg, _int_arg)), ("multiply", (_int_arg, _int_arg)),
        ("floor_divide", (_int_arg, _int_nonzero)), ("mod", (_int_arg, _int_nonzero)),
        ("maximum", (_int_arg, _int_arg)), ("minimum", (_int_arg, _int_arg)),
        ("true_divide", (_int_arg, _int_nonzero)),
    ]
]
ROWS += [
    binary(n, args=(_int_arg, _int_arg), dtypes=(), other_dtypes=INTS + (BOOL,), grad="no")
    for n in ("bitwise_and", "bitwise_or", "bitwise_xor")
]

# comparisons and logic (bool outputs; float, int and bool inputs)
ROWS += [
    binary(n, args=(Arg(-2, 2), Arg(-2, 2)), other_dtypes=INTS, grad="no", specials=True)
    for n in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
]
ROWS += [
    binary(n, args=(Arg(-1, 1), Arg(-1, 1)), other_dtypes=(BOOL,) + INTS, grad="no")
    for n in ("logical_and", "logical_or", "logical_xor")
]
ROWS += [
    binary("isclose", args=(Arg(-1, 1), Arg(-1, 1)), grad="no", specials=True),
    OpRow("allclose", fnp.allclose, np.allclose, args=(Arg(-1, 1), Arg(-1, 1)),
          shapes=broadcast_shapes_of(2), grad="no",
          make_args=lambda rng, shapes, kw, dt: [rng.uniform(-1, 1, shapes[0]).astype(dt),
                                                  (rng.uniform(-1, 1, shapes[1]) * 1e-9).astype(dt)]),
    OpRow("array_equal", fnp.array_equal, np.array_equal, args=(Arg(-1, 1), Arg(-1, 1)), grad="no",
          shapes=shapes_of(2),
          make_args=lambda rng, shapes, kw, dt: [np.round(rng.uniform(-1, 1, shapes[0])).astype(dt),
                                                  np.round(rng.uniform(-1, 1, shapes[1])).astype(dt)]),
]

# where / clip with array bounds
ROWS += [
    OpRow("where", fnp.where, np.where, args=(Arg(kind="bool", diff=False), Arg(), Arg()),
          shapes=broadcast_shapes_of(3), example_shapes=((3, 2), (2,), (3, 1))),
    OpRow("clip[arrays]", fnp.clip, np.clip, args=(Arg(), Arg(-2, -0.1), Arg(0.1, 2)),
          shapes=broadcast_shapes_of(3), example_shapes=((3, 2), (2,), (3, 1)), covers=("numpy.clip",),
          valid=lambda v, kw: _far_apart(v[0], v[1]) and _far_apart(v[0], v[2])),
]

# --------------------------------------------------------------------------------------
# reductions

_distinct = Arg(-2, 2, kind="distinct")
ROWS += [
    reduction("sum"), reduction("mean"),
    reduction("prod", arg=Arg(0.3, 1.6)),
    reduction("prod[with zeros]", fn=fnp.prod, ref=np.prod, covers=("numpy.prod",),
              make_args=lambda rng, shapes, kw, dt: [np.where(rng.random(shapes[0]) < 0.3, 0.0,
                                                              rng.uniform(-1.5, 1.5, shapes[0])).astype(dt)]),
    reduction("max", arg=_distinct), reduction("min", arg=_distinct),
    reduction("max[ties]", fn=fnp.max, ref=np.max, covers=("numpy.max",), grad="skip",
              arg=Arg(-2, 2, kind="int"), other_dtypes=INTS),
    reduction("min[ties]", fn=fnp.min, ref=np.min, covers=("numpy.min",), grad="skip",
              arg=Arg(-2, 2, kind="int"), other_dtypes=INTS),
    reduction("var", kwargs=axis_kwargs(), fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-11)}),
    reduction("std", arg=_distinct, shapes=shapes_of(1, min_dims=1, min_side=2),
              fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-11)}),
    reduction("var[ddof=1]", fn=lambda x, **kw: fnp.var(x, ddof=1, **kw),
              ref=lambda x, **kw: np.var(x, ddof=1, **kw), covers=("numpy.var",),
              shapes=shapes_of(1, min_dims=1, min_side=2), kwargs=one_axis_kwargs(keepdims=True),
              fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-11)}),
    reduction("argmax", arg=_distinct, kwargs=one_axis_kwargs(keepdims=True),
              shapes=shapes_of(1, min_dims=1), grad="no", example_kwargs={"axis": 1}),
    reduction("argmin", arg=_distinct, kwargs=one_axis_kwargs(keepdims=True),
              shapes=shapes_of(1, min_dims=1), grad="no", example_kwargs={"axis": 1}),
    reduction("argmax[flat]", fn=fnp.argmax, ref=np.argmax, arg=Arg(-2, 2, kind="int"), dtypes=(),
              other_dtypes=INTS, kwargs=lambda s: st.just({}), grad="no", covers=("numpy.argmax",),
              example_kwargs={}),
    reduction("argmin[flat]", fn=fnp.argmin, ref=np.argmin, arg=Arg(-2, 2, kind="int"), dtypes=(),
              other_dtypes=INTS, kwargs=lambda s: st.just({}), grad="no", covers=("numpy.argmin",),
              example_kwargs={}),
    reduction("all", arg=Arg(-1, 1, kind="int"), other_dtypes=(BOOL,) + INTS, grad="no"),
    reduction("any", arg=Arg(-1, 1, kind="int"), other_dtypes=(BOOL,) + INTS, grad="no"),
    reduction("sum[int]", fn=fnp.sum, ref=np.sum, arg=Arg(-9, 9), dtypes=(), other_dtypes=INTS + (BOOL,),
              covers=("numpy.sum",), grad="no"),
    reduction("mean[int]", fn=fnp.mean, ref=np.mean, arg=Arg(-9, 9), dtypes=(), other_dtypes=INTS,
              covers=("numpy.mean",), grad="no"),
]

# --------------------------------------------------------------------------------------
# shape manipulation


def _reshape_kwargs(shapes):
    (s,) = shapes
    n = int(np.prod(s, dtype=np.int64))
    divisors = [d for d in range(1, n + 1) if n % d == 0]
    opts = [(n,), (-1,), s[::-1], (1,) + s, s + (1,)]
    opts += [(d, n // d) for d in divisors] + [(d, -1) for d in divisors]
    return st.sampled_from(opts).map(lambda t: {"newshape": tuple(t)})


def _perm_kwargs(shapes):
    nd = len(shapes[0])
    return st.permutations(list(range(nd))).map(lambda p: {"axes": tuple(p)})


def _two_axes(names):
    def make(shapes):
        nd = len(shapes[0])
        return st.fixed_dictionaries({names[0]: st.integers(-nd, nd - 1), names[1]: st.integers(-nd, nd - 1)})

    return make


def _squeeze_kwargs(shapes):
    (s,) = shapes
    ones = [i for i, d in enumerate(s) if d == 1]
    opts = [st.none()]
    if ones:
        opts.append(st.lists(st.sampled_from(ones), min_size=1, unique=True).map(tuple))
        opts.append(st.sampled_from(ones))
    return st.fixed_dictionaries({"axis": st.one_of(*opts)})


def _expand_kwargs(shapes):
    nd = len(shapes[0])
    return st.fixed_dictionaries({"axis": st.integers(-nd - 1, nd)})


def _broadcast_to_kwargs(shapes):
    (s,) = shapes
    def target(t):
        lead, grow = t
        grown = tuple(3 if (d == 1 and g) else d for d, g in zip(s, grow, strict=True))
        return {"shape": tuple(lead) + grown}

    return st.tuples(st.lists(st.integers(1, 3), max_size=2),
                     st.lists(st.booleans(), min_size=len(s), max_size=len(s))).map(target)


ROWS += [
    OpRow("reshape", lambda x, newshape: fnp.reshape(x, newshape),
          lambda x, newshape: np.reshape(x, newshape),
          shapes=shapes_of(1), kwargs=_reshape_kwargs, example_kwargs={"newshape": (2, 3)}),
    OpRow("reshape[method]", lambda x, newshape: x.reshape(*newshape),
          lambda x, newshape: x.reshape(*newshape),
          shapes=shapes_of(1, min_dims=1), kwargs=_reshape_kwargs, example_kwargs={"newshape": (6,)},
          covers=("Array.reshape",)),
    OpRow("ravel", fnp.ravel, np.ravel),
    OpRow("transpose", fnp.transpose, np.transpose, shapes=shapes_of(1, max_dims=4)),
    OpRow("transpose[axes]", lambda x, axes: fnp.transpose(x, axes), lambda x, axes: np.transpose(x, axes),
          shapes=shapes_of(1, max_dims=4), kwargs=_perm_kwargs, example_kwargs={"axes": (1, 0)},
          covers=("numpy.transpose",)),
    OpRow("permute_dims", lambda x, axes: fnp.permute_dims(x, axes), lambda x, axes: np.transpose(x, axes),
          shapes=shapes_of(1, max_dims=4), kwargs=_perm_kwargs, example_kwargs={"axes": (1, 0)}),
    OpRow("matrix_transpose", fnp.matrix_transpose, lambda x: np.swapaxes(x, -1, -2),
          shapes=shapes_of(1, min_dims=2, max_dims=4)),
    OpRow("moveaxis", lambda x, source, destination: fnp.moveaxis(x, source, destination), np.moveaxis,
          shapes=shapes_of(1, min_dims=1, max_dims=4), kwargs=_two_axes(("source", "destination")),
          example_kwargs={"source": 0, "destination": -1}),
    OpRow("swapaxes", lambda x, axis1, axis2: fnp.swapaxes(x, axis1, axis2), np.swapaxes,
          shapes=shapes_of(1, min_dims=1, max_dims=4), kwargs=_two_axes(("axis1", "axis2")),
          example_kwargs={"axis1": 0, "axis2": 1}),
    OpRow("squeeze", lambda x, axis: fnp.squeeze(x, axis), lambda x, axis: np.squeeze(x, axis),
          shapes=hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=2).map(lambda s: (s,)),
          kwargs=_squeeze_kwargs, example_shapes=((3, 1, 2),), example_kwargs={"axis": 1}),
    OpRow("expand_dims", lambda x, axis: fnp.expand_dims(x, axis), np.expand_dims,
          kwargs=_expand_kwargs, example_kwargs={"axis": 1}),
    OpRow("broadcast_to", lambda x, shape: fnp.broadcast_to(x, shape), np.broadcast_to,
          shapes=hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3).map(lambda s: (s,)),
          kwargs=_broadcast_to_kwargs, example_shapes=((3, 1),), example_kwargs={"shape": (2, 3, 4)}),
    OpRow("broadcast_arrays", lambda x, y: fnp.broadcast_arrays(x, y),
          lambda x, y: list(np.broadcast_arrays(x, y)), args=(Arg(), Arg()), shapes=broadcast_shapes_of(2),
          example_shapes=((3, 1), (4,))),
    OpRow("atleast_1d", fnp.atleast_1d, np.atleast_1d),
    OpRow("atleast_2d", fnp.atleast_2d, np.atleast_2d),
    OpRow("atleast_3d", fnp.atleast_3d, np.atleast_3d),
    OpRow("Array.T", lambda x: x.T, lambda x: x.T, shapes=shapes_of(1, max_dims=4), covers=("Array.T",)),
]

# --------------------------------------------------------------------------------------
# Names in the public namespaces that are deliberately not rows (with the reason).  The
# coverage test fails for any other public function without a row.

NOT_OPS = {
    # array creation: no array inputs; tested in tests/test_op_table.py::test_creation
    **{n: "creation" for n in ("array", "asarray", "zeros", "ones", "full", "empty", "zeros_like",
                               "ones_like", "full_like", "empty_like", "arange", "linspace", "logspace",
                               "eye", "identity", "tri")},
    # static shape queries (return Python values)
    "shape": "static query", "ndim": "static query", "size": "static query",
    "broadcast_shapes": "static query (shapes in, shape out)",
}
# Internal helpers that leak into `fgrad.numpy` through star imports (not NumPy API).
LEAKED_HELPERS = {"get_aval", "wrap", "normalize_axes", "normalize_axis", "moveaxis_one", "abs_",
                  "convert_element_type", "ArrayImpl", "Tracer", "ndarray"}


def rows_by_name() -> dict[str, OpRow]:
    out: dict[str, OpRow] = {}
    for r in ROWS:
        if r.name in out:
            raise ValueError(f"op table: duplicate row name {r.name!r}")
        out[r.name] = r
    return out


def covered_names() -> set[str]:
    return {n for r in ROWS for n in r.public_names}


def public_functions(namespace: str = "numpy") -> dict[str, Callable]:
    """Public functions of ``fgrad.<namespace>`` defined by fgrad (not re-exported numpy)."""
    import importlib

    mod = importlib.import_module(f"fgrad.{namespace}")
    out = {}
    for n in dir(mod):
        if n.startswith("_"):
            continue
        obj = getattr(mod, n)
        if isinstance(obj, type) or not callable(obj):
            continue
        if not (getattr(obj, "__module__", None) or "").startswith("fgrad"):
            continue
        out[n] = obj
    return out


def uncovered(namespace: str = "numpy") -> list[str]:
    """Public functions of ``fgrad.<namespace>`` without an op-table row (nor an entry in
    `NOT_OPS` / `LEAKED_HELPERS`).  Aliases (``absolute`` is ``abs``) count as covered."""
    funcs = public_functions(namespace)
    covered = covered_names()
    covered_objs = {id(funcs[n.split(".")[-1]]) for n in covered
                    if n.rsplit(".", 1)[0] == namespace and n.split(".")[-1] in funcs}
    missing = []
    for n, f in sorted(funcs.items()):
        if f"{namespace}.{n}" in covered or id(f) in covered_objs:
            continue
        if namespace == "numpy" and (n in NOT_OPS or n in LEAKED_HELPERS):
            continue
        missing.append(n)
    return missing


# --------------------------------------------------------------------------------------
# primitive coverage: record which primitives a row binds (forward, jvp, vjp, vmap)


class _Recorder(Trace):
    """A pass-through trace that records the name of every primitive bound through it."""

    def __init__(self, parent, origin, names=None) -> None:
        super().__init__(parent, origin)
        self.names = names

    def process(self, prim, args, params):
        self.names.add(prim.name)
        return self.parent.process(prim, args, params)


def record_primitives(fn: Callable, *args) -> set[str]:
    """Names of the primitives bound while running ``fn(*args)`` (through any transforms)."""
    from ..core.trace import new_trace

    names: set[str] = set()
    with new_trace(_Recorder, "record_primitives", names=names):
        fn(*args)
    return names


def example_args(row: OpRow, dtype=F64, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    return [fnp.asarray(a) for a in row.sample_args(rng, row.get_example_shapes(), row.example_kwargs, dtype)]


def row_primitives(row: OpRow) -> set[str]:
    """Primitives reached by a row's forward pass, jvp, vjp and vmap on its example."""
    from ..tree_util import tree_flatten, tree_unflatten

    dtype = F64 if F64 in row.dtypes else (row.dtypes + row.other_dtypes)[0]
    args = example_args(row, dtype)
    kw = row.example_kwargs
    f = lambda *a: row.fn(*a, **kw)
    names = record_primitives(f, *args)
    if row.grad != "no":
        dn = row.diff_argnums(dtype)

        def g(*d):
            full = list(args)
            for i, v in zip(dn, d, strict=False):
                full[i] = v
            return f(*full)

        dargs = [args[i] for i in dn]
        tans = [fnp.ones_like(a) for a in dargs]
        names |= record_primitives(lambda: fgrad.jvp(g, tuple(dargs), tuple(tans)))

        def rev():
            out, f_vjp = fgrad.vjp(g, *dargs)
            leaves, tree = tree_flatten(out)
            f_vjp(tree_unflatten(tree, [fnp.ones_like(o) for o in leaves]))

        names |= record_primitives(rev)
    if row.vmap:
        batched = [fnp.asarray(np.stack([np.asarray(a)] * 2)) for a in args]
        names |= record_primitives(lambda: fgrad.vmap(f)(*batched))
    return names


__all__ = ["Arg", "OpRow", "ROWS", "NOT_OPS", "LEAKED_HELPERS", "unary", "binary", "reduction",
           "rows_by_name", "covered_names", "uncovered", "public_functions", "record_primitives",
           "row_primitives", "example_args", "shapes_of", "broadcast_shapes_of", "axis_kwargs",
           "one_axis_kwargs", "near_integer", "near_half_integer"]
