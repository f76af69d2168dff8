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


class MissingOp:
    """Stands in for a public function that does not exist (yet): its rows are skipped, so
    they light up when the function lands."""

    def __init__(self, qualname: str) -> None:
        self.qualname = qualname

    def __call__(self, *args, **kwargs):
        raise NotImplementedError(f"fgrad.{self.qualname} does not exist (yet)")


def lookup(module, name: str, namespace: str):
    """``getattr(module, name)``, or a `MissingOp` placeholder."""
    f = getattr(module, name, None)
    return f if f is not None else MissingOp(f"{namespace}.{name}")


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
            return st.integers(0, 2**32 - 1).map(lambda s: self.sample(np.random.default_rng(s), shape, dt))
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
    return hnp.array_shapes(min_dims=min_dims, max_dims=max_dims, min_side=min_side, max_side=max_side).map(
        lambda s: (s,) * nargs
    )


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
                opts.append(
                    st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True).map(
                        lambda ax: tuple(a - nd if i % 2 else a for i, a in enumerate(ax))
                    )
                )
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
    def missing(self) -> str | None:
        """Why the row cannot run yet (its fgrad function does not exist), else None."""
        return f"fgrad.{self.fn.qualname} does not exist yet" if isinstance(self.fn, MissingOp) else None

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
        return tuple(
            i
            for i, a in enumerate(self.args)
            if a.diff and a.kind in ("float", "distinct") and a.dtype_for(dtype).kind == "f"
        )


def unary(name, fn=None, ref=None, lo=-2.0, hi=2.0, avoid=(), **kw) -> OpRow:
    base = name.split("[")[0]
    return OpRow(
        name=name,
        fn=fn or getattr(fnp, base),
        ref=ref or getattr(np, base),
        args=(Arg(lo, hi, avoid=avoid),),
        shapes=kw.pop("shapes", shapes_of(1, min_side=0)),
        example_shapes=((3, 2),),
        **kw,
    )


def binary(name, fn=None, ref=None, args=(Arg(), Arg()), **kw) -> OpRow:
    base = name.split("[")[0]
    return OpRow(
        name=name,
        fn=fn or getattr(fnp, base),
        ref=ref or getattr(np, base),
        args=tuple(args),
        shapes=kw.pop("shapes", broadcast_shapes_of(len(args))),
        example_shapes=kw.pop("example_shapes", ((3, 2), (2,))),
        **kw,
    )


def reduction(name, fn=None, ref=None, arg=Arg(), kwargs=None, **kw) -> OpRow:
    base = name.split("[")[0]
    return OpRow(
        name=name,
        fn=fn or getattr(fnp, base),
        ref=ref or getattr(np, base),
        args=(arg,),
        shapes=kw.pop("shapes", shapes_of(1, min_dims=0, max_dims=3)),
        kwargs=kwargs or axis_kwargs(),
        example_shapes=((3, 4),),
        example_kwargs=kw.pop("example_kwargs", {"axis": 1, "keepdims": False}),
        **kw,
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
    unary("exp"),
    unary("exp2"),
    unary("expm1"),
    unary("log", lo=0.1, hi=4.0),
    unary("log2", lo=0.1, hi=4.0),
    unary("log10", lo=0.1, hi=4.0),
    unary("log1p", lo=-0.9, hi=3.0),
    unary("sqrt", lo=0.1, hi=4.0),
    unary("cbrt", avoid=(0.0,)),
    unary("square"),
    unary("reciprocal", avoid=(0.0,)),
    unary("negative"),
    unary("positive"),
    unary("sin", lo=-4, hi=4),
    unary("cos", lo=-4, hi=4),
    unary("tan", lo=-1.3, hi=1.3),
    unary("arcsin", lo=-0.9, hi=0.9),
    unary("arccos", lo=-0.9, hi=0.9),
    unary("arctan", lo=-4, hi=4),
    unary("sinh"),
    unary("cosh"),
    unary("tanh", lo=-3, hi=3),
    unary("arcsinh", lo=-4, hi=4),
    unary("arccosh", lo=1.1, hi=4.0),
    unary("arctanh", lo=-0.9, hi=0.9),
    unary("abs", avoid=(0.0,)),
    unary("sign", avoid=(0.0,), grad="zero"),
    unary("floor", lo=-3, hi=3, avoid=near_integer, grad="zero"),
    unary("ceil", lo=-3, hi=3, avoid=near_integer, grad="zero"),
    unary("trunc", lo=-3, hi=3, avoid=near_integer, grad="zero"),
    unary("rint", lo=-3, hi=3, avoid=near_half_integer, grad="zero"),
    unary("round", lo=-3, hi=3, avoid=near_half_integer, grad="zero"),
    unary(
        "round[decimals=1]",
        fn=lambda x: fnp.round(x, 1),
        ref=lambda x: np.round(x, 1),
        lo=-3,
        hi=3,
        avoid=lambda v: near_half_integer(v * 10) / 10,
        grad="zero",
        covers=("numpy.round",),
    ),
    unary("deg2rad"),
    unary("rad2deg"),
    unary("sinc", lo=-3, hi=3, fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    unary("real"),
    unary("imag", grad="zero"),
    unary("conjugate"),
    unary("angle", grad="zero", avoid=np.abs),  # real input: 0 or pi (complex: tests/test_numerics_edges.py)
    unary("angle[deg]", fn=lambda x: fnp.angle(x, deg=True), ref=lambda x: np.angle(x, deg=True), grad="zero",
          avoid=np.abs, covers=("numpy.angle",)),
    unary("isnan", grad="no", specials=True),
    unary("isinf", grad="no", specials=True),
    unary("isfinite", grad="no", specials=True),
    unary("signbit", grad="no", specials=True),
    unary("nan_to_num", specials=True),
    unary("logical_not", grad="no", other_dtypes=(BOOL,)),
    unary(
        "astype[float32]",
        fn=lambda x: fnp.astype(x, np.float32),
        ref=lambda x: x.astype(np.float32),
        covers=("numpy.astype",),
        f32_grad_scale=1.0,
    ),
    unary(
        "astype[float64]",
        fn=lambda x: fnp.astype(x, np.float64),
        ref=lambda x: x.astype(np.float64),
        covers=("numpy.astype",),
    ),
    unary(
        "astype[int32]",
        fn=lambda x: fnp.astype(x, np.int32),
        ref=lambda x: x.astype(np.int32),
        covers=("numpy.astype",),
        grad="no",
        lo=-50,
        hi=50,
    ),
    unary("power[x**2]", fn=lambda x: fnp.power(x, 2), ref=lambda x: np.power(x, 2), covers=("numpy.power",)),
    unary("power[x**3]", fn=lambda x: x**3, ref=lambda x: x**3, covers=("numpy.power",)),
    unary("power[x**0.5]", fn=lambda x: x**0.5, ref=lambda x: x**0.5, lo=0.1, hi=3, covers=("numpy.power",)),
    unary(
        "power[x**-1.5]",
        fn=lambda x: fnp.power(x, -1.5),
        ref=lambda x: np.power(x, -1.5),
        lo=0.2,
        hi=3,
        covers=("numpy.power",),
    ),
    unary(
        "power[2**x]", fn=lambda x: fnp.power(2.0, x), ref=lambda x: np.power(2.0, x), covers=("numpy.power",)
    ),
    unary(
        "clip", fn=lambda x: fnp.clip(x, -0.5, 0.7), ref=lambda x: np.clip(x, -0.5, 0.7), avoid=(-0.5, 0.7)
    ),
    unary(
        "clip[lo]",
        fn=lambda x: fnp.clip(x, -0.5),
        ref=lambda x: np.clip(x, -0.5, None),
        avoid=(-0.5,),
        covers=("numpy.clip",),
    ),
]

# Integer inputs through unary ops that accept them (forward and vmap only).
ROWS += [
    unary(
        f"{n}[int]",
        fn=getattr(fnp, n),
        ref=getattr(np, n),
        lo=-5,
        hi=5,
        dtypes=(),
        other_dtypes=INTS,
        covers=(f"numpy.{n}",),
    )
    for n in ("abs", "negative", "sign", "square", "exp")
]
ROWS += [unary("invert", lo=-9, hi=9, dtypes=(), other_dtypes=INTS + (BOOL,), grad="no")]

# --------------------------------------------------------------------------------------
# elementwise binary math

_pos = Arg(0.3, 3.0)
_nonzero = Arg(-3.0, 3.0, avoid=(0.0,), margin=0.3)

ROWS += [
    binary("add"),
    binary("subtract"),
    binary("multiply"),
    binary("divide", args=(Arg(), _nonzero)),
    binary("true_divide", args=(Arg(), _nonzero)),
    binary("power", args=(_pos, Arg())),
    binary("maximum", valid=valid_not_tied, specials=True),
    binary("minimum", valid=valid_not_tied, specials=True),
    binary("fmax", valid=valid_not_tied, specials=True),
    binary("fmin", valid=valid_not_tied, specials=True),
    binary("arctan2", args=(Arg(), _nonzero)),
    binary("hypot", args=(_nonzero, _nonzero)),
    binary("logaddexp"),
    binary("logaddexp2", fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    binary("mod", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("remainder", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("fmod", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("floor_divide", args=(Arg(-4, 4), _nonzero), valid=valid_mod, grad="zero"),
    binary("divmod", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("copysign", args=(_nonzero, _nonzero)),
    binary("heaviside", args=(Arg(avoid=(0.0,)), Arg()), grad="zero"),
    binary(
        "arctan2[quadrants]",
        fn=fnp.arctan2,
        ref=np.arctan2,
        args=(_nonzero, _nonzero),
        covers=("numpy.arctan2",),
    ),
]

_int_arg = Arg(-9, 9)
_int_nonzero = Arg(-9, 9, avoid=(0,))
ROWS += [
    binary(
        f"{n}[int]",
        fn=getattr(fnp, n),
        ref=getattr(np, n),
        args=args,
        dtypes=(),
        other_dtypes=INTS,
        covers=(f"numpy.{n}",),
    )
    for n, args in [
        ("add", (_int_arg, _int_arg)),
        ("subtract", (_int_arg, _int_arg)),
        ("multiply", (_int_arg, _int_arg)),
        ("floor_divide", (_int_arg, _int_nonzero)),
        ("mod", (_int_arg, _int_nonzero)),
        ("maximum", (_int_arg, _int_arg)),
        ("minimum", (_int_arg, _int_arg)),
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
    OpRow(
        "allclose",
        fnp.allclose,
        np.allclose,
        args=(Arg(-1, 1), Arg(-1, 1)),
        shapes=broadcast_shapes_of(2),
        grad="no",
        make_args=lambda rng, shapes, kw, dt: [
            rng.uniform(-1, 1, shapes[0]).astype(dt),
            (rng.uniform(-1, 1, shapes[1]) * 1e-9).astype(dt),
        ],
    ),
    OpRow(
        "array_equal",
        fnp.array_equal,
        np.array_equal,
        args=(Arg(-1, 1), Arg(-1, 1)),
        grad="no",
        shapes=shapes_of(2),
        make_args=lambda rng, shapes, kw, dt: [
            np.round(rng.uniform(-1, 1, shapes[0])).astype(dt),
            np.round(rng.uniform(-1, 1, shapes[1])).astype(dt),
        ],
    ),
]

# where / clip with array bounds
ROWS += [
    OpRow(
        "where",
        fnp.where,
        np.where,
        args=(Arg(kind="bool", diff=False), Arg(), Arg()),
        shapes=broadcast_shapes_of(3),
        example_shapes=((3, 2), (2,), (3, 1)),
    ),
    OpRow(
        "clip[arrays]",
        fnp.clip,
        np.clip,
        args=(Arg(), Arg(-2, -0.1), Arg(0.1, 2)),
        shapes=broadcast_shapes_of(3),
        example_shapes=((3, 2), (2,), (3, 1)),
        covers=("numpy.clip",),
        valid=lambda v, kw: _far_apart(v[0], v[1]) and _far_apart(v[0], v[2]),
    ),
]

# --------------------------------------------------------------------------------------
# reductions

_distinct = Arg(-2, 2, kind="distinct")
ROWS += [
    reduction("sum"),
    reduction("mean"),
    reduction("prod", arg=Arg(0.3, 1.6)),
    reduction(
        "prod[with zeros]",
        fn=fnp.prod,
        ref=np.prod,
        covers=("numpy.prod",),
        make_args=lambda rng, shapes, kw, dt: [
            np.where(rng.random(shapes[0]) < 0.3, 0.0, rng.uniform(-1.5, 1.5, shapes[0])).astype(dt)
        ],
    ),
    reduction("max", arg=_distinct),
    reduction("min", arg=_distinct),
    reduction("ptp", arg=_distinct),
    reduction("average"),
    reduction("count_nonzero", grad="skip", arg=Arg(-2, 2, kind="int"), other_dtypes=INTS),
    reduction(
        "max[ties]",
        fn=fnp.max,
        ref=np.max,
        covers=("numpy.max",),
        grad="skip",
        arg=Arg(-2, 2, kind="int"),
        other_dtypes=INTS,
    ),
    reduction(
        "min[ties]",
        fn=fnp.min,
        ref=np.min,
        covers=("numpy.min",),
        grad="skip",
        arg=Arg(-2, 2, kind="int"),
        other_dtypes=INTS,
    ),
    reduction("var", kwargs=axis_kwargs(), fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-11)}),
    reduction(
        "std",
        arg=_distinct,
        shapes=shapes_of(1, min_dims=1, min_side=2),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-11)},
    ),
    reduction(
        "var[ddof=1]",
        fn=lambda x, **kw: fnp.var(x, ddof=1, **kw),
        ref=lambda x, **kw: np.var(x, ddof=1, **kw),
        covers=("numpy.var",),
        shapes=shapes_of(1, min_dims=1, min_side=2),
        kwargs=one_axis_kwargs(keepdims=True),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-11)},
    ),
    reduction(
        "argmax",
        arg=_distinct,
        kwargs=one_axis_kwargs(keepdims=True),
        shapes=shapes_of(1, min_dims=1),
        grad="no",
        example_kwargs={"axis": 1},
    ),
    reduction(
        "argmin",
        arg=_distinct,
        kwargs=one_axis_kwargs(keepdims=True),
        shapes=shapes_of(1, min_dims=1),
        grad="no",
        example_kwargs={"axis": 1},
    ),
    reduction(
        "argmax[flat]",
        fn=fnp.argmax,
        ref=np.argmax,
        arg=Arg(-2, 2, kind="int"),
        dtypes=(),
        other_dtypes=INTS,
        kwargs=lambda s: st.just({}),
        grad="no",
        covers=("numpy.argmax",),
        example_kwargs={},
    ),
    reduction(
        "argmin[flat]",
        fn=fnp.argmin,
        ref=np.argmin,
        arg=Arg(-2, 2, kind="int"),
        dtypes=(),
        other_dtypes=INTS,
        kwargs=lambda s: st.just({}),
        grad="no",
        covers=("numpy.argmin",),
        example_kwargs={},
    ),
    reduction("all", arg=Arg(-1, 1, kind="int"), other_dtypes=(BOOL,) + INTS, grad="no"),
    reduction("any", arg=Arg(-1, 1, kind="int"), other_dtypes=(BOOL,) + INTS, grad="no"),
    reduction(
        "sum[int]",
        fn=fnp.sum,
        ref=np.sum,
        arg=Arg(-9, 9),
        dtypes=(),
        other_dtypes=INTS + (BOOL,),
        covers=("numpy.sum",),
        grad="no",
    ),
    reduction(
        "mean[int]",
        fn=fnp.mean,
        ref=np.mean,
        arg=Arg(-9, 9),
        dtypes=(),
        other_dtypes=INTS,
        covers=("numpy.mean",),
        grad="no",
    ),
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

    return st.tuples(
        st.lists(st.integers(1, 3), max_size=2), st.lists(st.booleans(), min_size=len(s), max_size=len(s))
    ).map(target)


ROWS += [
    OpRow(
        "reshape",
        lambda x, newshape: fnp.reshape(x, newshape),
        lambda x, newshape: np.reshape(x, newshape),
        shapes=shapes_of(1),
        kwargs=_reshape_kwargs,
        example_kwargs={"newshape": (2, 3)},
    ),
    OpRow(
        "reshape[method]",
        lambda x, newshape: x.reshape(*newshape),
        lambda x, newshape: x.reshape(*newshape),
        shapes=shapes_of(1, min_dims=1),
        kwargs=_reshape_kwargs,
        example_kwargs={"newshape": (6,)},
        covers=("Array.reshape",),
    ),
    OpRow("ravel", fnp.ravel, np.ravel),
    OpRow("transpose", fnp.transpose, np.transpose, shapes=shapes_of(1, max_dims=4)),
    OpRow(
        "transpose[axes]",
        lambda x, axes: fnp.transpose(x, axes),
        lambda x, axes: np.transpose(x, axes),
        shapes=shapes_of(1, max_dims=4),
        kwargs=_perm_kwargs,
        example_kwargs={"axes": (1, 0)},
        covers=("numpy.transpose",),
    ),
    OpRow(
        "permute_dims",
        lambda x, axes: fnp.permute_dims(x, axes),
        lambda x, axes: np.transpose(x, axes),
        shapes=shapes_of(1, max_dims=4),
        kwargs=_perm_kwargs,
        example_kwargs={"axes": (1, 0)},
    ),
    OpRow(
        "matrix_transpose",
        fnp.matrix_transpose,
        lambda x: np.swapaxes(x, -1, -2),
        shapes=shapes_of(1, min_dims=2, max_dims=4),
    ),
    OpRow(
        "moveaxis",
        lambda x, source, destination: fnp.moveaxis(x, source, destination),
        np.moveaxis,
        shapes=shapes_of(1, min_dims=1, max_dims=4),
        kwargs=_two_axes(("source", "destination")),
        example_kwargs={"source": 0, "destination": -1},
    ),
    OpRow(
        "swapaxes",
        lambda x, axis1, axis2: fnp.swapaxes(x, axis1, axis2),
        np.swapaxes,
        shapes=shapes_of(1, min_dims=1, max_dims=4),
        kwargs=_two_axes(("axis1", "axis2")),
        example_kwargs={"axis1": 0, "axis2": 1},
    ),
    OpRow(
        "squeeze",
        lambda x, axis: fnp.squeeze(x, axis),
        lambda x, axis: np.squeeze(x, axis),
        shapes=hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=2).map(lambda s: (s,)),
        kwargs=_squeeze_kwargs,
        example_shapes=((3, 1, 2),),
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "expand_dims",
        lambda x, axis: fnp.expand_dims(x, axis),
        np.expand_dims,
        kwargs=_expand_kwargs,
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "broadcast_to",
        lambda x, shape: fnp.broadcast_to(x, shape),
        np.broadcast_to,
        shapes=hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=3).map(lambda s: (s,)),
        kwargs=_broadcast_to_kwargs,
        example_shapes=((3, 1),),
        example_kwargs={"shape": (2, 3, 4)},
    ),
    OpRow(
        "broadcast_arrays",
        lambda x, y: fnp.broadcast_arrays(x, y),
        lambda x, y: list(np.broadcast_arrays(x, y)),
        args=(Arg(), Arg()),
        shapes=broadcast_shapes_of(2),
        example_shapes=((3, 1), (4,)),
    ),
    OpRow("atleast_1d", fnp.atleast_1d, np.atleast_1d),
    OpRow("atleast_2d", fnp.atleast_2d, np.atleast_2d),
    OpRow("atleast_3d", fnp.atleast_3d, np.atleast_3d),
    OpRow("Array.T", lambda x: x.T, lambda x: x.T, shapes=shapes_of(1, max_dims=4), covers=("Array.T",)),
]

# --------------------------------------------------------------------------------------
# structural: joining, splitting, tiling, flipping, padding, triangles and diagonals


def _kw(**fields):
    """``shapes -> strategy of dicts``: each field is a strategy or ``shapes -> strategy``."""

    def make(shapes):
        return st.fixed_dictionaries(
            {
                k: (v(shapes) if callable(v) and not isinstance(v, st.SearchStrategy) else v)
                for k, v in fields.items()
            }
        )

    return make


def _axis(extra=0):
    """An int axis for the first argument's rank (+ ``extra`` for new axes, as in stack)."""
    return lambda shapes: st.integers(-(len(shapes[0]) + extra), len(shapes[0]) + extra - 1)


def _lst(f):
    """Adapt a function of a list of arrays to positional arrays."""
    return lambda *arrays, **kw: f(list(arrays), **kw)


def _split_kwargs(shapes):
    s = shapes[0]

    def for_axis(ax):
        n = s[ax]
        sections = [d for d in range(1, n + 1) if n % d == 0]
        idx_lists = st.lists(st.integers(0, n), max_size=3).map(sorted).map(list)
        return st.fixed_dictionaries(
            {
                "indices_or_sections": st.one_of(st.sampled_from(sections), idx_lists),
                "axis": st.just(ax - len(s) if ax % 2 else ax),
            }
        )

    return st.integers(0, len(s) - 1).flatmap(for_axis)


def _array_split_kwargs(shapes):
    s = shapes[0]
    return st.integers(0, len(s) - 1).flatmap(
        lambda ax: st.fixed_dictionaries(
            {"indices_or_sections": st.integers(1, s[ax] + 2), "axis": st.just(ax)}
        )
    )


def _flip_axis(shapes):
    nd = len(shapes[0])
    opts = [st.none()]
    if nd:
        opts += [
            st.integers(-nd, nd - 1),
            st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True).map(tuple),
        ]
    return st.one_of(*opts)


def _roll_kwargs(shapes):
    nd = len(shapes[0])
    none_axis = st.fixed_dictionaries({"shift": st.integers(-7, 7), "axis": st.none()})
    if not nd:
        return none_axis
    one = st.fixed_dictionaries({"shift": st.integers(-7, 7), "axis": st.integers(-nd, nd - 1)})
    many = st.lists(st.integers(0, nd - 1), min_size=1, max_size=nd, unique=True).flatmap(
        lambda axes: st.fixed_dictionaries(
            {
                "shift": st.lists(st.integers(-5, 5), min_size=len(axes), max_size=len(axes)).map(tuple),
                "axis": st.just(tuple(axes)),
            }
        )
    )
    return st.one_of(none_axis, one, many)


def _pad_kwargs(shapes):
    nd = len(shapes[0])
    widths = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=nd, max_size=nd).map(tuple)
    const = st.fixed_dictionaries(
        {"pad_width": widths, "mode": st.just("constant"), "constant_values": st.sampled_from([0.0, 1.5])}
    )
    other = st.fixed_dictionaries(
        {"pad_width": widths, "mode": st.sampled_from(["edge", "reflect", "symmetric", "wrap"])}
    )
    return st.one_of(const, other)


def _tile_kwargs(shapes):
    return st.fixed_dictionaries(
        {"reps": st.one_of(st.integers(1, 3), st.lists(st.integers(1, 3), min_size=1, max_size=3).map(tuple))}
    )


def _repeat_kwargs(shapes):
    s = shapes[0]
    flat = st.fixed_dictionaries({"repeats": st.integers(0, 3), "axis": st.none()})
    if not s:
        return flat
    per_axis = st.integers(0, len(s) - 1).flatmap(
        lambda ax: st.fixed_dictionaries(
            {
                "repeats": st.one_of(
                    st.integers(0, 3), st.lists(st.integers(0, 3), min_size=s[ax], max_size=s[ax]).map(tuple)
                ),
                "axis": st.just(ax),
            }
        )
    )
    return st.one_of(flat, per_axis)


def _diag_kwargs(shapes):
    return st.fixed_dictionaries({"k": st.integers(-2, 2)})


def _diagonal_kwargs(shapes):
    nd = len(shapes[0])
    return st.permutations(list(range(nd))).flatmap(
        lambda p: st.fixed_dictionaries(
            {"offset": st.integers(-2, 2), "axis1": st.just(p[0]), "axis2": st.just(p[1] - nd)}
        )
    )


def _rot90_kwargs(shapes):
    nd = len(shapes[0])
    return st.permutations(list(range(nd))).flatmap(
        lambda p: st.fixed_dictionaries({"k": st.integers(-3, 4), "axes": st.just((p[0], p[1]))})
    )


def _take_args(rng, shapes, kw, dt):
    a = rng.uniform(-2, 2, shapes[0]).astype(dt)
    ax = kw.get("axis")
    n = a.size if ax is None else a.shape[ax]
    return [a, rng.integers(-n, n, size=shapes[1]).astype(np.int64)]


def _take_along_args(rng, shapes, kw, dt):
    a = rng.uniform(-2, 2, shapes[0]).astype(dt)
    ax = kw["axis"]
    n = a.size if ax is None else a.shape[ax]
    ishape = (n + 1,) if ax is None else tuple(2 if i == ax % a.ndim else d for i, d in enumerate(a.shape))
    return [a, rng.integers(-n, n, size=ishape).astype(np.int64)]


def _put_along_args(rng, shapes, kw, dt):
    a = rng.uniform(-2, 2, shapes[0]).astype(dt)
    ax = kw["axis"] % a.ndim
    n = a.shape[ax]
    ishape = tuple(1 if i == ax else d for i, d in enumerate(a.shape))
    idx = rng.integers(0, n, size=ishape).astype(np.int64)  # one index per line: no duplicates
    return [a, idx, rng.uniform(-2, 2, ishape).astype(dt)]


def _put_along_ref(a, i, v, axis):
    a = a.copy()
    np.put_along_axis(a, i, v, axis)
    return a


def _fill_diag_ref(a, v):
    a = a.copy()
    np.fill_diagonal(a, v)
    return a


def _select_args(rng, shapes, kw, dt):
    s = shapes[0]
    return [
        rng.random(s) < 0.4,
        rng.random(s) < 0.5,
        rng.uniform(-2, 2, s).astype(dt),
        rng.uniform(-2, 2, s).astype(dt),
    ]


def _choose_args(rng, shapes, kw, dt):
    s = shapes[0]
    return [rng.integers(0, 3, size=s).astype(np.int64)] + [
        rng.uniform(-2, 2, s).astype(dt) for _ in range(3)
    ]


def _delete_kwargs(shapes):
    s = shapes[0]
    return st.integers(0, len(s) - 1).flatmap(
        lambda ax: st.fixed_dictionaries(
            {
                "obj": st.one_of(
                    st.integers(-s[ax], s[ax] - 1),
                    st.lists(st.integers(0, s[ax] - 1), max_size=2, unique=True).map(tuple),
                ),
                "axis": st.just(ax),
            }
        )
    )


def _insert_args(rng, shapes, kw, dt):
    a = rng.uniform(-2, 2, shapes[0]).astype(dt)
    ax = kw["axis"]
    vshape = tuple(1 if i == ax else d for i, d in enumerate(a.shape))
    return [a, rng.uniform(-2, 2, vshape).astype(dt)]


def _insert_kwargs(shapes):
    s = shapes[0]
    return st.integers(0, len(s) - 1).flatmap(
        lambda ax: st.fixed_dictionaries({"obj": st.integers(0, s[ax]), "axis": st.just(ax)})
    )


def _mask_kwargs(shapes):
    s = shapes[0]
    return st.integers(0, len(s) - 1).flatmap(
        lambda ax: st.fixed_dictionaries(
            {
                "condition": st.lists(st.booleans(), min_size=s[ax], max_size=s[ax]).map(tuple),
                "axis": st.just(ax),
            }
        )
    )


_one_plus = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4)
_two_plus = hnp.array_shapes(min_dims=2, max_dims=3, min_side=1, max_side=4)
_three_plus = hnp.array_shapes(min_dims=3, max_dims=4, min_side=1, max_side=3)


def _one(strategy):
    return strategy.map(lambda s: (s,))


def _same(n, strategy):
    return strategy.map(lambda s: (s,) * n)


ROWS += [
    OpRow(
        "concatenate",
        _lst(fnp.concatenate),
        _lst(np.concatenate),
        args=(Arg(),) * 3,
        shapes=_same(3, _one_plus),
        kwargs=_kw(axis=_axis()),
        example_shapes=((2, 3),) * 3,
        example_kwargs={"axis": 0},
    ),
    OpRow(
        "concatenate[sizes]",
        lambda a, b, c, axis: fnp.concatenate([a, b, c], axis=axis),
        lambda a, b, c, axis: np.concatenate([a, b, c], axis=axis),
        args=(Arg(),) * 3,
        shapes=st.sampled_from(
            [((2, 3), (1, 3), (4, 3)), ((3,), (1,), (2,)), ((2, 1, 2), (2, 3, 2), (2, 2, 2))]
        ),
        kwargs=lambda shapes: st.just(
            {"axis": [i for i in range(len(shapes[0])) if shapes[0][i] != shapes[1][i]][0]}
        ),
        example_shapes=((2, 3), (1, 3), (4, 3)),
        example_kwargs={"axis": 0},
        covers=("numpy.concatenate",),
    ),
    OpRow(
        "concatenate[axis=None]",
        lambda a, b: fnp.concatenate([a, b], axis=None),
        lambda a, b: np.concatenate([a, b], axis=None),
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=3), hnp.array_shapes(max_dims=3)),
        example_shapes=((2, 3), (4,)),
        covers=("numpy.concatenate",),
    ),
    OpRow(
        "concat",
        _lst(fnp.concat),
        _lst(np.concat),
        args=(Arg(),) * 2,
        shapes=_same(2, _one_plus),
        kwargs=_kw(axis=_axis()),
        example_shapes=((2, 3),) * 2,
        example_kwargs={"axis": -1},
    ),
    OpRow(
        "stack",
        _lst(fnp.stack),
        _lst(np.stack),
        args=(Arg(),) * 3,
        shapes=shapes_of(3, max_dims=2),
        kwargs=_kw(axis=_axis(extra=1)),
        example_shapes=((2, 3),) * 3,
        example_kwargs={"axis": 1},
    ),
    OpRow("hstack", _lst(fnp.hstack), _lst(np.hstack), args=(Arg(),) * 2, shapes=shapes_of(2, max_dims=3)),
    OpRow("vstack", _lst(fnp.vstack), _lst(np.vstack), args=(Arg(),) * 2, shapes=shapes_of(2, max_dims=3)),
    OpRow(
        "row_stack", _lst(fnp.row_stack), _lst(np.vstack), args=(Arg(),) * 2, shapes=shapes_of(2, max_dims=3)
    ),
    OpRow("dstack", _lst(fnp.dstack), _lst(np.dstack), args=(Arg(),) * 2, shapes=shapes_of(2, max_dims=3)),
    OpRow(
        "column_stack",
        _lst(fnp.column_stack),
        _lst(np.column_stack),
        args=(Arg(),) * 2,
        shapes=shapes_of(2, max_dims=2),
    ),
    OpRow(
        "split",
        lambda a, **kw: fnp.split(a, **kw),
        lambda a, **kw: np.split(a, **kw),
        shapes=_one(_one_plus),
        kwargs=_split_kwargs,
        example_shapes=((4, 3),),
        example_kwargs={"indices_or_sections": 2, "axis": 0},
    ),
    OpRow(
        "array_split",
        lambda a, **kw: fnp.array_split(a, **kw),
        lambda a, **kw: np.array_split(a, **kw),
        shapes=_one(_one_plus),
        kwargs=_array_split_kwargs,
        example_shapes=((5, 2),),
        example_kwargs={"indices_or_sections": 3, "axis": 0},
    ),
    OpRow(
        "hsplit",
        lambda a, n: fnp.hsplit(a, n),
        lambda a, n: np.hsplit(a, n),
        shapes=st.sampled_from([((4,),), ((2, 4),), ((3, 2, 2),)]),
        kwargs=_kw(n=st.sampled_from([1, 2])),
        example_shapes=((2, 4),),
        example_kwargs={"n": 2},
    ),
    OpRow(
        "vsplit",
        lambda a, n: fnp.vsplit(a, n),
        lambda a, n: np.vsplit(a, n),
        shapes=st.sampled_from([((4, 2),), ((2, 3, 2),)]),
        kwargs=_kw(n=st.sampled_from([1, 2])),
        example_shapes=((4, 2),),
        example_kwargs={"n": 2},
    ),
    OpRow(
        "dsplit",
        lambda a, n: fnp.dsplit(a, n),
        lambda a, n: np.dsplit(a, n),
        shapes=st.sampled_from([((2, 3, 4),), ((1, 2, 2, 3),)]),
        kwargs=_kw(n=st.sampled_from([1, 2])),
        example_shapes=((2, 3, 4),),
        example_kwargs={"n": 2},
    ),
    OpRow(
        "unstack",
        lambda a, axis: fnp.unstack(a, axis=axis),
        lambda a, axis: list(np.unstack(a, axis=axis)),
        shapes=_one(_one_plus),
        kwargs=_kw(axis=_axis()),
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "tile",
        lambda a, reps: fnp.tile(a, reps),
        np.tile,
        kwargs=_tile_kwargs,
        example_kwargs={"reps": (2, 1)},
    ),
    OpRow(
        "repeat",
        lambda a, **kw: fnp.repeat(a, **kw),
        lambda a, **kw: np.repeat(a, **kw),
        kwargs=_repeat_kwargs,
        example_kwargs={"repeats": 2, "axis": 1},
    ),
    OpRow(
        "flip",
        lambda a, axis: fnp.flip(a, axis),
        np.flip,
        shapes=shapes_of(1),
        kwargs=_kw(axis=_flip_axis),
        example_kwargs={"axis": 0},
    ),
    OpRow("fliplr", fnp.fliplr, np.fliplr, shapes=_one(_two_plus)),
    OpRow("flipud", fnp.flipud, np.flipud, shapes=_one(_one_plus)),
    OpRow(
        "roll",
        lambda a, shift, axis: fnp.roll(a, shift, axis),
        np.roll,
        kwargs=_roll_kwargs,
        example_kwargs={"shift": 1, "axis": 0},
    ),
    OpRow(
        "rot90",
        lambda a, k, axes: fnp.rot90(a, k, axes),
        np.rot90,
        shapes=_one(_two_plus),
        kwargs=_rot90_kwargs,
        example_kwargs={"k": 1, "axes": (0, 1)},
    ),
    OpRow(
        "pad",
        lambda a, **kw: fnp.pad(a, **kw),
        lambda a, **kw: np.pad(a, **kw),
        shapes=_one(_one_plus),
        kwargs=_pad_kwargs,
        example_kwargs={"pad_width": ((1, 0), (0, 2)), "mode": "constant", "constant_values": 0.0},
    ),
    OpRow(
        "triu",
        lambda m, k: fnp.triu(m, k),
        np.triu,
        shapes=_one(_two_plus),
        kwargs=_diag_kwargs,
        example_kwargs={"k": 0},
    ),
    OpRow(
        "tril",
        lambda m, k: fnp.tril(m, k),
        np.tril,
        shapes=_one(_two_plus),
        kwargs=_diag_kwargs,
        example_kwargs={"k": -1},
    ),
    OpRow(
        "diag[1d]",
        lambda v, k: fnp.diag(v, k),
        np.diag,
        shapes=shapes_of(1, min_dims=1, max_dims=1),
        kwargs=_diag_kwargs,
        example_shapes=((3,),),
        example_kwargs={"k": 1},
        covers=("numpy.diag",),
    ),
    OpRow(
        "diag[2d]",
        lambda v, k: fnp.diag(v, k),
        np.diag,
        shapes=shapes_of(1, min_dims=2, max_dims=2),
        kwargs=_diag_kwargs,
        example_kwargs={"k": 0},
        covers=("numpy.diag",),
    ),
    OpRow(
        "diagflat",
        lambda v, k: fnp.diagflat(v, k),
        np.diagflat,
        shapes=shapes_of(1, max_dims=2),
        kwargs=_diag_kwargs,
        example_kwargs={"k": 0},
    ),
    OpRow(
        "diagonal",
        lambda a, **kw: fnp.diagonal(a, **kw),
        lambda a, **kw: np.diagonal(a, **kw),
        shapes=_one(_two_plus),
        kwargs=_diagonal_kwargs,
        example_kwargs={"offset": 0, "axis1": 0, "axis2": 1},
    ),
    OpRow(
        "trace",
        lambda a, **kw: fnp.trace(a, **kw),
        lambda a, **kw: np.trace(a, **kw),
        shapes=_one(_two_plus),
        kwargs=_diagonal_kwargs,
        example_kwargs={"offset": 0, "axis1": 0, "axis2": 1},
    ),
    OpRow(
        "fill_diagonal",
        lambda a, v: fnp.fill_diagonal(a, v, inplace=False),
        _fill_diag_ref,
        args=(Arg(), Arg()),
        shapes=st.sampled_from([((3, 3), ()), ((4, 2), ()), ((2, 2, 2), ())]),
        example_shapes=((3, 3), ()),
    ),
]

# --------------------------------------------------------------------------------------
# indexing-like: take, take_along_axis, put_along_axis, select, choose, compress, delete, ...

ROWS += [
    OpRow(
        "take",
        lambda a, i, axis: fnp.take(a, i, axis=axis),
        lambda a, i, axis: np.take(a, i, axis=axis),
        args=(Arg(), Arg(kind="int", dtype=np.int64)),
        shapes=st.tuples(_one_plus, hnp.array_shapes(min_dims=0, max_dims=2)),
        kwargs=lambda shapes: st.fixed_dictionaries({"axis": st.one_of(st.none(), _axis()(shapes))}),
        make_args=_take_args,
        example_shapes=((3, 4), (2,)),
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "take_along_axis",
        lambda a, i, axis: fnp.take_along_axis(a, i, axis),
        lambda a, i, axis: np.take_along_axis(a, i, axis),
        args=(Arg(), Arg(kind="int", dtype=np.int64)),
        shapes=st.tuples(_one_plus, st.just(())),
        kwargs=_kw(axis=_axis()),
        make_args=_take_along_args,
        example_shapes=((3, 4), ()),
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "put_along_axis",
        lambda a, i, v, axis: fnp.put_along_axis(a, i, v, axis, inplace=False),
        _put_along_ref,
        args=(Arg(), Arg(kind="int", dtype=np.int64), Arg()),
        shapes=st.tuples(_one_plus, st.just(()), st.just(())),
        kwargs=_kw(axis=_axis()),
        make_args=_put_along_args,
        example_shapes=((3, 4), (), ()),
        example_kwargs={"axis": 1},
    ),
    OpRow(
        "select",
        lambda c1, c2, a, b: fnp.select([c1, c2], [a, b], default=0.5),
        lambda c1, c2, a, b: np.select([c1, c2], [a, b], default=0.5),
        args=(Arg(kind="bool"), Arg(kind="bool"), Arg(), Arg()),
        shapes=shapes_of(4),
        make_args=_select_args,
    ),
    OpRow(
        "choose",
        lambda i, a, b, c: fnp.choose(i, [a, b, c]),
        lambda i, a, b, c: np.choose(i, [a, b, c]),
        args=(Arg(kind="int", dtype=np.int64), Arg(), Arg(), Arg()),
        shapes=shapes_of(4),
        make_args=_choose_args,
    ),
    OpRow(
        "compress",
        lambda a, condition, axis: fnp.compress(np.asarray(condition), a, axis),
        lambda a, condition, axis: np.compress(np.asarray(condition), a, axis),
        shapes=_one(_one_plus),
        kwargs=_mask_kwargs,
        example_kwargs={"condition": (True, False, True), "axis": 0},
    ),
    OpRow(
        "extract",
        lambda a, condition: fnp.extract(np.asarray(condition), a),
        lambda a, condition: np.extract(np.asarray(condition), a),
        shapes=_one(_one_plus),
        kwargs=lambda shapes: st.fixed_dictionaries(
            {
                "condition": st.lists(
                    st.booleans(), min_size=int(np.prod(shapes[0])), max_size=int(np.prod(shapes[0]))
                ).map(lambda c: np.array(c).reshape(shapes[0]).tolist())
            }
        ),
        example_kwargs={"condition": [[True, False], [False, True], [True, True]]},
    ),
    OpRow(
        "delete",
        lambda a, obj, axis: fnp.delete(a, obj, axis),
        lambda a, obj, axis: np.delete(a, obj, axis),
        shapes=_one(_one_plus),
        kwargs=_delete_kwargs,
        example_kwargs={"obj": 1, "axis": 0},
    ),
    OpRow(
        "insert",
        lambda a, v, obj, axis: fnp.insert(a, obj, v, axis),
        lambda a, v, obj, axis: np.insert(a, obj, v, axis),
        args=(Arg(), Arg()),
        shapes=st.tuples(_one_plus, st.just(())),
        kwargs=_insert_kwargs,
        make_args=_insert_args,
        example_shapes=((3, 2), ()),
        example_kwargs={"obj": 1, "axis": 0},
    ),
    OpRow(
        "append",
        lambda a, v, axis: fnp.append(a, v, axis),
        lambda a, v, axis: np.append(a, v, axis),
        args=(Arg(), Arg()),
        shapes=_same(2, _one_plus),
        kwargs=_kw(axis=lambda s: st.one_of(st.none(), _axis()(s))),
        example_shapes=((2, 3),) * 2,
        example_kwargs={"axis": 0},
    ),
    OpRow(
        "meshgrid",
        lambda a, b, indexing: fnp.meshgrid(a, b, indexing=indexing),
        lambda a, b, indexing: list(np.meshgrid(a, b, indexing=indexing)),
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(min_dims=1, max_dims=1), hnp.array_shapes(min_dims=1, max_dims=1)),
        kwargs=_kw(indexing=st.sampled_from(["xy", "ij"])),
        example_shapes=((3,), (2,)),
        example_kwargs={"indexing": "xy"},
    ),
]

# value-dependent output shapes: forward only (no vmap)
ROWS += [
    OpRow(
        "nonzero",
        lambda a: fnp.nonzero(a),
        lambda a: list(np.nonzero(a)),
        args=(Arg(-1, 1, kind="int"),),
        shapes=_one(_one_plus),
        grad="no",
        vmap=False,
        other_dtypes=INTS + (BOOL,),
    ),
    OpRow(
        "nonzero[size]",
        lambda a: fnp.nonzero(a, size=4, fill_value=0),
        lambda a: [np.pad(i[:4], (0, max(0, 4 - i.size))) for i in np.nonzero(a)],
        args=(Arg(-1, 1, kind="int"),),
        shapes=_one(_one_plus),
        grad="no",
        covers=("numpy.nonzero",),
    ),
    OpRow(
        "argwhere",
        fnp.argwhere,
        np.argwhere,
        args=(Arg(-1, 1, kind="int"),),
        shapes=_one(_one_plus),
        grad="no",
        vmap=False,
    ),
    OpRow(
        "flatnonzero", fnp.flatnonzero, np.flatnonzero, args=(Arg(-1, 1, kind="int"),), grad="no", vmap=False
    ),
    OpRow(
        "unique",
        lambda a: fnp.unique(a),
        np.unique,
        args=(Arg(-2, 2, kind="int"),),
        grad="skip",
        vmap=False,
        other_dtypes=INTS,
    ),
    OpRow(
        "unique[counts]",
        lambda a: fnp.unique(a, return_index=True, return_inverse=True, return_counts=True),
        lambda a: list(np.unique(a, return_index=True, return_inverse=True, return_counts=True)),
        args=(Arg(-2, 2, kind="int"),),
        shapes=_one(hnp.array_shapes(min_dims=1, max_dims=1)),
        grad="skip",
        vmap=False,
        covers=("numpy.unique",),
        example_shapes=((5,),),
    ),
    OpRow(
        "unique_values",
        fnp.unique_values,
        np.unique_values,
        args=(Arg(-2, 2, kind="int"),),
        grad="skip",
        vmap=False,
    ),
    OpRow(
        "unique_counts",
        lambda a: list(fnp.unique_counts(a)),
        lambda a: list(np.unique_counts(a)),
        args=(Arg(-2, 2, kind="int"),),
        grad="skip",
        vmap=False,
    ),
    OpRow(
        "unique_inverse",
        lambda a: list(fnp.unique_inverse(a)),
        lambda a: list(np.unique_inverse(a)),
        args=(Arg(-2, 2, kind="int"),),
        grad="skip",
        vmap=False,
    ),
    OpRow(
        "unique_all",
        lambda a: list(fnp.unique_all(a)),
        lambda a: list(np.unique_all(a)),
        args=(Arg(-2, 2, kind="int"),),
        grad="skip",
        vmap=False,
    ),
]


# --------------------------------------------------------------------------------------
# products


def _matmul_shapes():
    """Shapes (a, b) valid for matmul: vector/matrix/batched, with broadcasting batch dims."""

    def build(t):
        n, k, m, batch_a, batch_b, va, vb = t
        a = (k,) if va else tuple(batch_a) + (n, k)
        b = (k,) if vb else tuple(batch_b) + (k, m)
        return a, b

    return st.tuples(
        st.integers(1, 3),
        st.integers(1, 3),
        st.integers(1, 3),
        st.lists(st.sampled_from([1, 2]), max_size=2),
        st.lists(st.sampled_from([1, 2]), max_size=1),
        st.booleans(),
        st.booleans(),
    ).map(build)


def _dot_shapes():
    def build(t):
        sa, sb, k = t
        a = tuple(sa) + (k,)
        b = (k,) if not sb else tuple(sb[:-1]) + (k,) + (sb[-1],)
        return (a if len(a) > 0 else (k,)), b

    return st.one_of(
        st.tuples(
            st.lists(st.integers(1, 3), max_size=2),
            st.lists(st.integers(1, 3), max_size=2),
            st.integers(1, 3),
        ).map(build),
        st.tuples(st.just(()), hnp.array_shapes(max_dims=2)),  # scalar operand
    )


_EINSUMS = [
    ("ij,jk->ik", ((2, 3), (3, 4))),
    ("ij,ij->", ((2, 3), (2, 3))),
    ("ii->i", ((3, 3),)),
    ("ii", ((3, 3),)),
    ("ij->ji", ((2, 3),)),
    ("bij,bjk->bik", ((2, 2, 3), (2, 3, 2))),
    ("i,j->ij", ((2,), (3,))),
    ("...ij,...jk->...ik", ((2, 1, 2, 3), (3, 3, 2))),
    ("ij,j", ((2, 3), (3,))),
    ("abc,cd,b->ad", ((2, 3, 2), (2, 2), (3,))),
    ("i,i,i->", ((4,), (4,), (4,))),
    ("ijk->", ((2, 3, 2),)),
]


def _einsum_row(sub, shapes):
    n = len(shapes)
    return OpRow(
        f"einsum[{sub}]",
        (lambda s: lambda *ops: fnp.einsum(s, *ops))(sub),
        (lambda s: lambda *ops: np.einsum(s, *ops))(sub),
        args=(Arg(),) * n,
        shapes=st.just(shapes),
        example_shapes=shapes,
        covers=("numpy.einsum",),
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    )


_PROD_TOL = {F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)}

ROWS += [
    OpRow(
        "matmul",
        fnp.matmul,
        np.matmul,
        args=(Arg(), Arg()),
        shapes=_matmul_shapes(),
        example_shapes=((2, 3), (3, 4)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "matmul[@]",
        lambda a, b: a @ b,
        lambda a, b: a @ b,
        args=(Arg(), Arg()),
        shapes=_matmul_shapes(),
        example_shapes=((2, 2, 3), (3,)),
        fwd_tol=_PROD_TOL,
        covers=("numpy.matmul",),
    ),
    OpRow(
        "dot",
        fnp.dot,
        np.dot,
        args=(Arg(), Arg()),
        shapes=_dot_shapes(),
        example_shapes=((2, 3), (3, 2)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow("vdot", fnp.vdot, np.vdot, args=(Arg(), Arg()), shapes=shapes_of(2, min_dims=1), fwd_tol=_PROD_TOL),
    OpRow(
        "inner",
        fnp.inner,
        np.inner,
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=2), hnp.array_shapes(max_dims=2), st.integers(1, 3)).map(
            lambda t: (t[0] + (t[2],), t[1] + (t[2],))
        ),
        example_shapes=((2, 3), (3,)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "outer",
        fnp.outer,
        np.outer,
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=2), hnp.array_shapes(max_dims=2)),
        example_shapes=((3,), (2,)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "kron",
        fnp.kron,
        np.kron,
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=2, max_side=3), hnp.array_shapes(max_dims=2, max_side=3)),
        example_shapes=((2, 2), (3,)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "cross",
        lambda a, b: fnp.cross(a, b),
        np.cross,
        args=(Arg(), Arg()),
        shapes=st.tuples(st.lists(st.integers(1, 2), max_size=2), st.sampled_from([2, 3])).map(
            lambda t: (tuple(t[0]) + (t[1],), (t[1],))
        ),
        example_shapes=((2, 3), (3,)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "matvec",
        fnp.matvec,
        np.matvec,
        args=(Arg(), Arg()),
        shapes=st.sampled_from([((2, 3), (3,)), ((4, 2, 3), (3,)), ((2, 3), (4, 3))]),
        example_shapes=((2, 3), (3,)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "vecmat",
        fnp.vecmat,
        np.vecmat,
        args=(Arg(), Arg()),
        shapes=st.sampled_from([((2,), (2, 3)), ((4, 2), (2, 3)), ((2,), (4, 2, 3))]),
        example_shapes=((2,), (2, 3)),
        fwd_tol=_PROD_TOL,
    ),
    OpRow(
        "vecdot",
        lambda a, b, axis: fnp.vecdot(a, b, axis=axis),
        lambda a, b, axis: np.vecdot(a, b, axis=axis),
        args=(Arg(), Arg()),
        shapes=shapes_of(2, min_dims=1),
        kwargs=_kw(axis=_axis()),
        example_kwargs={"axis": -1},
        fwd_tol=_PROD_TOL,
    ),
]
ROWS += [_einsum_row(sub, shapes) for sub, shapes in _EINSUMS]

# tensordot's axes must agree with its shapes: drawn together
ROWS += [
    OpRow(
        "tensordot",
        lambda a, b, axes: fnp.tensordot(a, b, axes),
        lambda a, b, axes: np.tensordot(a, b, axes),
        args=(Arg(), Arg()),
        shapes=st.sampled_from(
            [((2, 3), (3, 2)), ((2, 3, 4), (3, 4, 2)), ((3,), (3,)), ((2, 3), (4,)), ((2, 2, 3), (3, 2, 1))]
        ),
        kwargs=lambda shapes: st.just(
            {
                "axes": {
                    ((2, 3), (3, 2)): 1,
                    ((2, 3, 4), (3, 4, 2)): 2,
                    ((3,), (3,)): 1,
                    ((2, 3), (4,)): 0,
                    ((2, 2, 3), (3, 2, 1)): ([1, 2], [1, 0]),
                }[tuple(shapes)]
            }
        ),
        example_shapes=((2, 3), (3, 2)),
        example_kwargs={"axes": 1},
        fwd_tol=_PROD_TOL,
    ),
]

# --------------------------------------------------------------------------------------
# sorting, searching, cumulative and order statistics


def _sort_kwargs(shapes):
    nd = len(shapes[0])
    axis = st.one_of(st.none(), st.integers(-nd, nd - 1)) if nd else st.none()
    return st.fixed_dictionaries({"axis": axis, "descending": st.booleans()})


def _ref_sort(a, axis, descending):
    out = np.sort(a, axis=axis)
    if descending:
        out = np.flip(out, axis=-1 if axis is None else axis)
    return out


def _ref_argsort(a, axis, descending):
    if not descending:
        return np.argsort(a, axis=axis, stable=True)
    # stable descending: sort the negation
    return np.argsort(-a, axis=axis, stable=True)


def _cum_kwargs(shapes):
    nd = len(shapes[0])
    return st.fixed_dictionaries(
        {"axis": st.one_of(st.none(), st.integers(-nd, nd - 1)) if nd else st.none()}
    )


def _cumulative_kwargs(shapes):
    nd = len(shapes[0])
    axis = st.integers(-nd, nd - 1) if nd > 1 else st.sampled_from([None, 0] if nd else [None])
    return st.fixed_dictionaries({"axis": axis, "include_initial": st.booleans()})


def _q_kwargs(scale):
    def make(shapes):
        nd = len(shapes[0])
        q = st.one_of(
            st.sampled_from([0.0, 0.3, 0.5, 1.0]).map(lambda v: v * scale),
            st.lists(st.floats(0, 1).map(lambda v: round(v * scale, 3)), min_size=1, max_size=3).map(tuple),
        )
        axis = st.one_of(st.none(), st.integers(-nd, nd - 1)) if nd else st.none()
        return st.fixed_dictionaries(
            {
                "q": q,
                "axis": axis,
                "keepdims": st.booleans(),
                "method": st.sampled_from(["linear", "lower", "higher", "nearest", "midpoint"]),
            }
        )

    return make


def _qfn(f):
    return lambda a, q, **kw: f(a, np.asarray(q) if isinstance(q, tuple) else q, **kw)


def _searchsorted_args(rng, shapes, kw, dt):
    a = np.sort(rng.uniform(-2, 2, shapes[0])).astype(dt)
    v = rng.uniform(-2.5, 2.5, shapes[1]).astype(dt)
    v.flat[: min(v.size, a.size)] = a[: min(v.size, a.size)]  # exact hits exercise side=
    return [a, v]


def _nan_args(rng, shapes, kw, dt):
    """NaNs where the index sum is 1 mod 3: every slice (sides >= 3) keeps >= 2 numbers."""
    a = rng.uniform(-2, 2, shapes[0])
    idx = np.indices(shapes[0]).sum(axis=0) if a.ndim else np.zeros(())
    a[(idx % 3) == 1] = np.nan
    return [a.astype(dt)]


def _nan_reduction(name, **kw):
    kw.setdefault("shapes", shapes_of(1, min_dims=1, max_dims=3, min_side=3, max_side=4))
    return reduction(name, make_args=_nan_args, fwd_tol={F32: (1e-6, 1e-5), F64: (1e-13, 1e-11)}, **kw)


ROWS += [
    OpRow(
        "sort",
        lambda a, axis, descending: fnp.sort(a, axis=axis, descending=descending),
        _ref_sort,
        args=(_distinct,),
        kwargs=_sort_kwargs,
        example_kwargs={"axis": -1, "descending": False},
    ),
    OpRow(
        "sort[ties]",
        lambda a, axis, descending: fnp.sort(a, axis=axis, descending=descending),
        _ref_sort,
        args=(Arg(-2, 2, kind="int"),),
        kwargs=_sort_kwargs,
        example_kwargs={"axis": 0, "descending": True},
        grad="skip",
        other_dtypes=INTS,
        covers=("numpy.sort",),
    ),
    OpRow(
        "argsort",
        lambda a, axis, descending: fnp.argsort(a, axis=axis, descending=descending),
        _ref_argsort,
        args=(Arg(-2, 2, kind="int"),),
        kwargs=_sort_kwargs,
        grad="no",
        other_dtypes=INTS,
        example_kwargs={"axis": -1, "descending": False},
    ),
    OpRow(
        "lexsort",
        lambda a, b: fnp.lexsort([a, b]),
        lambda a, b: np.lexsort([a, b]),
        args=(Arg(-2, 2, kind="int"), Arg(-1, 1, kind="int")),
        shapes=shapes_of(2, min_dims=1),
        grad="no",
        other_dtypes=INTS,
    ),
    OpRow(
        "partition",
        lambda a, kth: fnp.sort(fnp.partition(a, kth), axis=-1),
        lambda a, kth: np.sort(a),
        args=(_distinct,),
        shapes=shapes_of(1, min_dims=1),
        kwargs=lambda shapes: st.fixed_dictionaries({"kth": st.integers(0, shapes[0][-1] - 1)}),
        example_kwargs={"kth": 1},
    ),
    OpRow(
        "argpartition",
        lambda a, kth: fnp.take_along_axis(a, fnp.argpartition(a, kth), -1)[..., kth],
        lambda a, kth: np.partition(a, kth)[..., kth],
        args=(_distinct,),
        shapes=shapes_of(1, min_dims=1),
        kwargs=lambda shapes: st.fixed_dictionaries({"kth": st.integers(0, shapes[0][-1] - 1)}),
        example_kwargs={"kth": 1},
    ),
    OpRow(
        "searchsorted",
        lambda a, v, side: fnp.searchsorted(a, v, side=side),
        lambda a, v, side: np.searchsorted(a, v, side=side),
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(min_dims=1, max_dims=1), hnp.array_shapes(max_dims=2)),
        kwargs=_kw(side=st.sampled_from(["left", "right"])),
        make_args=_searchsorted_args,
        grad="no",
        example_shapes=((5,), (3,)),
        example_kwargs={"side": "left"},
    ),
    OpRow(
        "digitize",
        lambda x, bins, right: fnp.digitize(x, bins, right),
        lambda x, bins, right: np.digitize(x, bins, right),
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=2), hnp.array_shapes(min_dims=1, max_dims=1)),
        kwargs=_kw(right=st.booleans()),
        grad="no",
        example_shapes=((5,), (3,)),
        example_kwargs={"right": False},
        make_args=lambda rng, shapes, kw, dt: _searchsorted_args(rng, (shapes[1], shapes[0]), kw, dt)[::-1],
    ),
    OpRow(
        "cumsum",
        lambda a, axis: fnp.cumsum(a, axis),
        lambda a, axis: np.cumsum(a, axis),
        kwargs=_cum_kwargs,
        example_kwargs={"axis": 1},
        other_dtypes=INTS,
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "cumprod",
        lambda a, axis: fnp.cumprod(a, axis),
        lambda a, axis: np.cumprod(a, axis),
        args=(Arg(0.5, 1.5),),
        kwargs=_cum_kwargs,
        example_kwargs={"axis": 0},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "cumprod[with zeros]",
        lambda a, axis: fnp.cumprod(a, axis),
        lambda a, axis: np.cumprod(a, axis),
        kwargs=_cum_kwargs,
        example_kwargs={"axis": 1},
        covers=("numpy.cumprod",),
        make_args=lambda rng, shapes, kw, dt: [
            np.where(rng.random(shapes[0]) < 0.3, 0.0, rng.uniform(-1.5, 1.5, shapes[0])).astype(dt)
        ],
    ),
    OpRow(
        "cumulative_sum",
        lambda a, **kw: fnp.cumulative_sum(a, **kw),
        lambda a, **kw: np.cumulative_sum(a, **kw),
        shapes=shapes_of(1, min_dims=1),
        kwargs=_cumulative_kwargs,
        example_kwargs={"axis": 1, "include_initial": True},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "cumulative_prod",
        lambda a, **kw: fnp.cumulative_prod(a, **kw),
        lambda a, **kw: np.cumulative_prod(a, **kw),
        args=(Arg(0.5, 1.5),),
        shapes=shapes_of(1, min_dims=1),
        kwargs=_cumulative_kwargs,
        example_kwargs={"axis": 0, "include_initial": False},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "nancumsum",
        lambda a, axis: fnp.nancumsum(a, axis),
        lambda a, axis: np.nancumsum(a, axis),
        kwargs=_cum_kwargs,
        make_args=_nan_args,
        example_kwargs={"axis": 1},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "nancumprod",
        lambda a, axis: fnp.nancumprod(a, axis),
        lambda a, axis: np.nancumprod(a, axis),
        kwargs=_cum_kwargs,
        make_args=lambda rng, s, kw, dt: [
            np.where(rng.random(s[0]) < 0.25, np.nan, rng.uniform(0.5, 1.5, s[0])).astype(dt)
        ],
        example_kwargs={"axis": 0},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    reduction("median", arg=_distinct, fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    reduction(
        "median[ties]",
        fn=fnp.median,
        ref=np.median,
        arg=Arg(-2, 2, kind="int"),
        grad="skip",
        other_dtypes=INTS,
        covers=("numpy.median",),
    ),
    OpRow(
        "quantile",
        _qfn(fnp.quantile),
        _qfn(np.quantile),
        args=(_distinct,),
        kwargs=_q_kwargs(1.0),
        example_kwargs={"q": 0.3, "axis": 1, "keepdims": False, "method": "linear"},
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "percentile",
        _qfn(fnp.percentile),
        _qfn(np.percentile),
        args=(_distinct,),
        kwargs=_q_kwargs(100.0),
        example_kwargs={"q": 30.0, "axis": None, "keepdims": False, "method": "linear"},
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-13, 1e-12)},
    ),
    _nan_reduction("nansum"),
    _nan_reduction("nanmean"),
    _nan_reduction("nanprod"),
    _nan_reduction("nanmax"),
    _nan_reduction("nanmin"),
    _nan_reduction("nanvar"),
    _nan_reduction("nanstd"),
    _nan_reduction(
        "nanargmax",
        kwargs=one_axis_kwargs(keepdims=True),
        shapes=shapes_of(1, min_dims=1, min_side=3),
        grad="no",
        example_kwargs={"axis": 1},
    ),
    _nan_reduction(
        "nanargmin",
        kwargs=one_axis_kwargs(keepdims=True),
        shapes=shapes_of(1, min_dims=1, min_side=3),
        grad="no",
        example_kwargs={"axis": 0},
    ),
]


# --------------------------------------------------------------------------------------
# numpy.linalg

LA = fnp.linalg
_LA_TOL = {F32: (1e-4, 1e-4), F64: (1e-10, 1e-9)}
_LA_BATCH = st.sampled_from([(), (2,)])


def _sq_shapes(n_lo=1, n_hi=4, extra=None):
    """One square matrix shape with optional batch dims (and extra argument shapes)."""

    def build(t):
        batch, n = t
        s = tuple(batch) + (n, n)
        return (s,) if extra is None else (s,) + extra(batch, n)

    return st.tuples(_LA_BATCH, st.integers(n_lo, n_hi)).map(build)


def _well_conditioned(rng, shape, dt):
    n = shape[-1]
    return (np.eye(n) * 2.0 + rng.uniform(-0.5, 0.5, shape)).astype(dt)


def _spd(rng, shape, dt):
    n = shape[-1]
    m = rng.uniform(-1, 1, shape)
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(dt)


def _with_spectrum(rng, shape, dt, values, symmetric):
    """Random orthogonal Q and V with Q diag(values) V^T (V = Q when symmetric)."""
    n = shape[-1]
    out = np.empty(shape)
    for idx in np.ndindex(*shape[:-2]):
        q, _ = np.linalg.qr(rng.normal(size=(n, n)))
        v = q if symmetric else np.linalg.qr(rng.normal(size=(n, n)))[0]
        out[idx] = q @ np.diag(values(n)) @ v.T
    return out.astype(dt)


def _distinct_spectrum(n):
    return np.linspace(-2.0, 2.5, n) + 0.1 * np.arange(n) if n > 1 else np.array([1.5])


def _positive_spectrum(n):
    return np.linspace(0.5, 2.5, n)


def _la_args(*makers):
    def make(rng, shapes, kw, dt):
        return [mk(rng, s, dt) for mk, s in zip(makers, shapes, strict=True)]

    return make


def _rand(rng, shape, dt):
    return rng.uniform(-1, 1, shape).astype(dt)


def _sign_fix(v, w=None):
    """Canonical signs for eigen/singular vectors: each column of ``v`` gets a positive first
    row; the matching rows of ``w`` (V^H of an SVD) are flipped with it."""
    m = fnp if isinstance(v, fgrad.Array) else np
    s = m.sign(v[..., :1, :])
    if w is None:
        return v * s
    return v * s, w * m.swapaxes(s, -1, -2)


def _eigh_fn(a):
    w, v = LA.eigh(a)
    return w, _sign_fix(v)


def _eigh_ref(a):
    w, v = np.linalg.eigh(a)
    return w, _sign_fix(v)


def _svd_fn(a):
    u, s, vh = LA.svd(a, full_matrices=False)
    u, vh = _sign_fix(u, vh)
    return u, s, vh


def _svd_ref(a):
    u, s, vh = np.linalg.svd(a, full_matrices=False)
    u, vh = _sign_fix(u, vh)
    return u, s, vh


def _first_row_away_from_zero(vals, kw):
    a = np.asarray(vals[0], np.float64)
    if a.shape[-1] == a.shape[-2] and np.allclose(a, np.swapaxes(a, -1, -2)):
        v = np.linalg.eigh(a)[1]
    else:
        v = np.linalg.svd(a, full_matrices=False)[0]
    return bool(np.all(np.abs(v[..., 0, :]) > 0.1))


def _rect_shapes():
    return st.tuples(_LA_BATCH, st.integers(1, 4), st.integers(1, 4)).map(
        lambda t: (tuple(t[0]) + (t[1], t[2]),)
    )


def _svd_args(rng, shapes, kw, dt):
    (s,) = shapes
    m, n = s[-2:]
    k = min(m, n)
    out = np.empty(s)
    for idx in np.ndindex(*s[:-2]):
        u = np.linalg.qr(rng.normal(size=(m, m)))[0][:, :k]
        v = np.linalg.qr(rng.normal(size=(n, n)))[0][:, :k]
        out[idx] = u @ np.diag(np.linspace(0.5, 2.5, k) if k > 1 else [1.5]) @ v.T
    return [out.astype(dt)]


def _norm_kwargs(shapes):
    nd = len(shapes[0])
    vec = st.fixed_dictionaries(
        {
            "ord": st.sampled_from([None, 1, 2, np.inf, -np.inf, 3, 0.5]),
            "axis": st.integers(-nd, nd - 1),
            "keepdims": st.booleans(),
        }
    )
    if nd < 2:
        return st.fixed_dictionaries(
            {
                "ord": st.sampled_from([None, 1, 2, np.inf, -np.inf, 3]),
                "axis": st.sampled_from([None, 0]),
                "keepdims": st.booleans(),
            }
        )
    mat = st.permutations(list(range(nd))).flatmap(
        lambda p: st.fixed_dictionaries(
            {
                "ord": st.sampled_from([None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]),
                "axis": st.just((p[0], p[1] - nd)),
                "keepdims": st.booleans(),
            }
        )
    )
    return st.one_of(vec, mat)


ROWS += [
    OpRow(
        "linalg.inv",
        LA.inv,
        np.linalg.inv,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_well_conditioned),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.inv",),
    ),
    OpRow(
        "linalg.solve",
        LA.solve,
        np.linalg.solve,
        args=(Arg(), Arg()),
        shapes=_sq_shapes(extra=lambda b, n: (tuple(b) + (n, 2),)),
        make_args=_la_args(_well_conditioned, _rand),
        example_shapes=((3, 3), (3, 2)),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.solve",),
    ),
    OpRow(
        "linalg.solve[vector]",
        LA.solve,
        np.linalg.solve,
        args=(Arg(), Arg()),
        shapes=st.integers(1, 4).map(lambda n: ((n, n), (n,))),
        make_args=_la_args(_well_conditioned, _rand),
        example_shapes=((3, 3), (3,)),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.solve",),
    ),
    OpRow(
        "linalg.det",
        LA.det,
        np.linalg.det,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_well_conditioned),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.det",),
    ),
    OpRow(
        "linalg.slogdet",
        lambda a: tuple(LA.slogdet(a)),
        lambda a: tuple(np.linalg.slogdet(a)),
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_well_conditioned),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.slogdet",),
    ),
    OpRow(
        "linalg.cholesky",
        LA.cholesky,
        np.linalg.cholesky,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_spd),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.cholesky",),
    ),
    OpRow(
        "linalg.cholesky[upper]",
        lambda a: LA.cholesky(a, upper=True),
        lambda a: np.linalg.cholesky(a, upper=True),
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_spd),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.cholesky",),
    ),
    OpRow(
        "linalg.eigh",
        _eigh_fn,
        _eigh_ref,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=lambda rng, s, kw, dt: [_with_spectrum(rng, s[0], dt, _distinct_spectrum, True)],
        valid=_first_row_away_from_zero,
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.eigh",),
    ),
    OpRow(
        "linalg.eigvalsh",
        LA.eigvalsh,
        np.linalg.eigvalsh,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=lambda rng, s, kw, dt: [_with_spectrum(rng, s[0], dt, _distinct_spectrum, True)],
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.eigvalsh",),
    ),
    OpRow(
        "linalg.svd",
        _svd_fn,
        _svd_ref,
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        make_args=_svd_args,
        valid=_first_row_away_from_zero,
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.svd",),
    ),
    OpRow(
        "linalg.svd[values]",
        lambda a: LA.svd(a, compute_uv=False),
        lambda a: np.linalg.svd(a, compute_uv=False),
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        make_args=_svd_args,
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.svd",),
    ),
    OpRow(
        "linalg.svdvals",
        LA.svdvals,
        np.linalg.svdvals,
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        make_args=_svd_args,
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.svdvals",),
    ),
    OpRow(
        "linalg.qr",
        lambda a: tuple(LA.qr(a)),
        lambda a: tuple(np.linalg.qr(a)),
        shapes=st.tuples(_LA_BATCH, st.integers(1, 4), st.integers(1, 4)).map(
            lambda t: (tuple(t[0]) + (max(t[1], t[2]), min(t[1], t[2])),)
        ),
        make_args=_svd_args,
        fwd_tol=_LA_TOL,
        example_shapes=((4, 3),),
        covers=("numpy.linalg.qr",),
    ),
    OpRow(
        "linalg.qr[r]",
        lambda a: LA.qr(a, mode="r"),
        lambda a: np.linalg.qr(a, mode="r"),
        shapes=st.integers(1, 4).map(lambda n: ((n + 1, n),)),
        make_args=_svd_args,
        fwd_tol=_LA_TOL,
        example_shapes=((4, 3),),
        covers=("numpy.linalg.qr",),
    ),
    OpRow(
        "linalg.pinv",
        LA.pinv,
        np.linalg.pinv,
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        make_args=_svd_args,
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.pinv",),
    ),
    OpRow(
        "linalg.matrix_power",
        lambda a, n: LA.matrix_power(a, n),
        np.linalg.matrix_power,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_well_conditioned),
        kwargs=_kw(n=st.integers(-2, 3)),
        example_kwargs={"n": 3},
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.matrix_power",),
    ),
    OpRow(
        "linalg.matrix_rank",
        LA.matrix_rank,
        np.linalg.matrix_rank,
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        grad="no",
        make_args=lambda rng, s, kw, dt: [
            (
                _rand(rng, s[0][:-1] + (1,), dt) @ _rand(rng, s[0][:-2] + (1, s[0][-1]), dt)
                if rng.random() < 0.5
                else _rand(rng, s[0], dt)
            ).astype(dt)
        ],
        covers=("numpy.linalg.matrix_rank",),
    ),
    OpRow(
        "linalg.norm",
        lambda x, **kw: LA.norm(x, **kw),
        lambda x, **kw: np.linalg.norm(x, **kw),
        shapes=_one(hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=3)),
        kwargs=_norm_kwargs,
        make_args=lambda rng, s, kw, dt: [
            (rng.uniform(0.3, 2.0, s[0]) * np.where(rng.random(s[0]) < 0.5, -1, 1)).astype(dt)
        ],
        example_shapes=((3, 4),),
        example_kwargs={"ord": None, "axis": None, "keepdims": False},
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.norm",),
    ),
    OpRow(
        "linalg.vector_norm",
        lambda x, **kw: LA.vector_norm(x, **kw),
        lambda x, **kw: np.linalg.vector_norm(x, **kw),
        args=(Arg(0.3, 2.0),),
        kwargs=_kw(ord=st.sampled_from([2, 1, np.inf, -np.inf, 3]), keepdims=st.booleans()),
        example_kwargs={"ord": 2, "keepdims": False},
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.vector_norm",),
    ),
    OpRow(
        "linalg.matrix_norm",
        lambda x, **kw: LA.matrix_norm(x, **kw),
        lambda x, **kw: np.linalg.matrix_norm(x, **kw),
        shapes=_rect_shapes(),
        example_shapes=((4, 3),),
        make_args=_svd_args,
        kwargs=_kw(
            ord=st.sampled_from(["fro", "nuc", 1, 2, np.inf, -1, -2, -np.inf]), keepdims=st.booleans()
        ),
        example_kwargs={"ord": "fro", "keepdims": False},
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.matrix_norm",),
    ),
    OpRow(
        "linalg.cond",
        LA.cond,
        np.linalg.cond,
        shapes=_sq_shapes(),
        example_shapes=((3, 3),),
        make_args=_la_args(_well_conditioned),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.cond",),
    ),
    OpRow(
        "linalg.lstsq",
        lambda a, b: LA.lstsq(a, b)[0],
        lambda a, b: np.linalg.lstsq(a, b)[0],
        args=(Arg(), Arg()),
        shapes=st.tuples(st.integers(1, 3), st.integers(0, 2)).map(
            lambda t: ((t[0] + t[1], t[0]), (t[0] + t[1], 2))
        ),
        make_args=lambda rng, s, kw, dt: _svd_args(rng, s[:1], kw, dt) + [_rand(rng, s[1], dt)],
        example_shapes=((4, 3), (4, 2)),
        fwd_tol=_LA_TOL,
        vmap=False,
        covers=("numpy.linalg.lstsq",),
    ),
    OpRow(
        "linalg.lstsq[all]",
        lambda a, b: list(LA.lstsq(a, b)),
        lambda a, b: [o if i != 2 else np.int64(o) for i, o in enumerate(np.linalg.lstsq(a, b))],
        args=(Arg(), Arg()),
        shapes=st.just(((4, 3), (4,))),
        grad="skip",
        vmap=False,
        make_args=lambda rng, s, kw, dt: _svd_args(rng, s[:1], kw, dt) + [_rand(rng, s[1], dt)],
        example_shapes=((4, 3), (4,)),
        fwd_tol=_LA_TOL,
        covers=("numpy.linalg.lstsq",),
    ),
    OpRow(
        "linalg.multi_dot",
        lambda a, b, c: LA.multi_dot([a, b, c]),
        lambda a, b, c: np.linalg.multi_dot([a, b, c]),
        args=(Arg(),) * 3,
        shapes=st.sampled_from([((3,), (3, 2), (2, 4)), ((2, 3), (3, 2), (2,)), ((1, 2), (2, 2), (2, 3))]),
        example_shapes=((2, 3), (3, 2), (2,)),
        fwd_tol=_LA_TOL,
        vmap=False,
        covers=("numpy.linalg.multi_dot",),
    ),
    OpRow(
        "linalg.tensorinv",
        lambda a: LA.tensorinv(a, ind=2),
        lambda a: np.linalg.tensorinv(a, ind=2),
        shapes=st.just(((2, 2, 4),)),
        example_shapes=((2, 2, 4),),
        fwd_tol=_LA_TOL,
        vmap=False,
        make_args=lambda rng, s, kw, dt: [_well_conditioned(rng, (4, 4), dt).reshape(2, 2, 4)],
        covers=("numpy.linalg.tensorinv",),
    ),
    OpRow(
        "linalg.tensorsolve",
        LA.tensorsolve,
        np.linalg.tensorsolve,
        args=(Arg(), Arg()),
        shapes=st.just(((2, 2, 4), (2, 2))),
        example_shapes=((2, 2, 4), (2, 2)),
        fwd_tol=_LA_TOL,
        vmap=False,
        make_args=lambda rng, s, kw, dt: [
            _well_conditioned(rng, (4, 4), dt).reshape(2, 2, 4),
            _rand(rng, (2, 2), dt),
        ],
        covers=("numpy.linalg.tensorsolve",),
    ),
    OpRow(
        "linalg.diagonal",
        lambda x, offset: LA.diagonal(x, offset=offset),
        lambda x, offset: np.linalg.diagonal(x, offset=offset),
        shapes=_one(_two_plus),
        kwargs=_kw(offset=st.integers(-2, 2)),
        example_kwargs={"offset": 0},
        covers=("numpy.linalg.diagonal",),
    ),
    OpRow(
        "linalg.trace",
        lambda x, offset: LA.trace(x, offset=offset),
        lambda x, offset: np.linalg.trace(x, offset=offset),
        shapes=_one(_two_plus),
        kwargs=_kw(offset=st.integers(-2, 2)),
        example_kwargs={"offset": 1},
        covers=("numpy.linalg.trace",),
    ),
    OpRow(
        "linalg.cross",
        LA.cross,
        np.linalg.cross,
        args=(Arg(), Arg()),
        shapes=shapes_of(2, min_dims=1).map(lambda s: (s[0][:-1] + (3,),) * 2),
        example_shapes=((2, 3), (2, 3)),
        fwd_tol=_PROD_TOL,
        covers=("numpy.linalg.cross",),
    ),
    OpRow(
        "linalg.vecdot",
        LA.vecdot,
        np.linalg.vecdot,
        args=(Arg(), Arg()),
        shapes=shapes_of(2, min_dims=1),
        fwd_tol=_PROD_TOL,
        covers=("numpy.linalg.vecdot",),
    ),
    OpRow(
        "linalg.outer",
        LA.outer,
        np.linalg.outer,
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(min_dims=1, max_dims=1), hnp.array_shapes(min_dims=1, max_dims=1)),
        example_shapes=((3,), (2,)),
        fwd_tol=_PROD_TOL,
        covers=("numpy.linalg.outer",),
    ),
    OpRow(
        "linalg.tensordot",
        lambda a, b: LA.tensordot(a, b, axes=1),
        lambda a, b: np.linalg.tensordot(a, b, axes=1),
        args=(Arg(), Arg()),
        shapes=st.just(((2, 3), (3, 4))),
        example_shapes=((2, 3), (3, 4)),
        fwd_tol=_PROD_TOL,
        covers=("numpy.linalg.tensordot",),
    ),
    OpRow(
        "linalg.matmul",
        LA.matmul,
        np.linalg.matmul,
        args=(Arg(), Arg()),
        shapes=st.sampled_from([((2, 3), (3, 4)), ((2, 2, 3), (3, 1)), ((3,), (3, 2))]),
        example_shapes=((2, 3), (3, 4)),
        fwd_tol=_PROD_TOL,
        covers=("numpy.linalg.matmul",),
    ),
    OpRow(
        "linalg.matrix_transpose",
        LA.matrix_transpose,
        np.linalg.matrix_transpose,
        shapes=_one(_two_plus),
        covers=("numpy.linalg.matrix_transpose",),
    ),
]


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
]

# --------------------------------------------------------------------------------------
# fgrad.lax: JAX lax names (thin wrappers over the primitives)

LAX = fgrad.lax


def _lax(name, ref, nargs=1, lo=-2.0, hi=2.0, avoid=(), args=None, **kw):
    args = args or (Arg(lo, hi, avoid=avoid),) * nargs
    shapes = kw.pop("shapes", shapes_of(len(args)))
    return OpRow(
        f"lax.{name}",
        kw.pop("fn", lookup(LAX, name.split("[")[0], "lax")),
        ref,
        args=tuple(args),
        shapes=shapes,
        covers=(f"lax.{name.split('[')[0]}",),
        **kw,
    )


def _lax_axes_kwargs(shapes):
    nd = len(shapes[0])
    if not nd:
        return st.just({"axes": ()})
    return st.fixed_dictionaries(
        {"axes": st.lists(st.integers(0, nd - 1), max_size=nd, unique=True).map(tuple)}
    )


def _lax_cum_kwargs(shapes):
    nd = len(shapes[0])
    return st.fixed_dictionaries({"axis": st.integers(0, nd - 1), "reverse": st.booleans()})


def _np_cum(f):
    def ref(x, axis, reverse):
        if reverse:
            return np.flip(f(np.flip(x, axis), axis=axis), axis)
        return f(x, axis=axis)

    return ref


def _np_cumlogsumexp(x, axis):
    return np.logaddexp.accumulate(x, axis=axis)


def _lax_round_ref(x, rounding_method):
    return np.round(x) if rounding_method == 1 else np.sign(x) * np.floor(np.abs(x) + 0.5)


_one_plus_lax = shapes_of(1, min_dims=1)

ROWS += [
    _lax("sin", np.sin),
    _lax("cos", np.cos),
    _lax("tan", np.tan, lo=-1.2, hi=1.2),
    _lax("asin", np.arcsin, lo=-0.9, hi=0.9),
    _lax("acos", np.arccos, lo=-0.9, hi=0.9),
    _lax("atan", np.arctan),
    _lax("sinh", np.sinh),
    _lax("cosh", np.cosh),
    _lax("tanh", np.tanh),
    _lax("asinh", np.arcsinh),
    _lax("acosh", np.arccosh, lo=1.1, hi=3),
    _lax("atanh", np.arctanh, lo=-0.9, hi=0.9),
    _lax("exp", np.exp),
    _lax("exp2", np.exp2),
    _lax("expm1", np.expm1),
    _lax("log", np.log, lo=0.1, hi=3),
    _lax("log1p", np.log1p, lo=-0.9, hi=3),
    _lax("sqrt", np.sqrt, lo=0.1, hi=3),
    _lax("rsqrt", lambda x: 1 / np.sqrt(x), lo=0.1, hi=3, fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    _lax("cbrt", np.cbrt, avoid=(0.0,)),
    _lax("square", np.square),
    _lax("logistic", _np_expit, fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    _lax("erf", _np_erf, fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    _lax("erfc", _np_erfc, fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    _lax("erf_inv", _np_erfinv, lo=-0.9, hi=0.9, fwd_tol={F32: (1e-5, 1e-5), F64: (1e-12, 1e-11)}),
    _lax("abs", np.abs, avoid=(0.0,)),
    _lax("neg", np.negative),
    _lax("sign", np.sign, avoid=(0.0,), grad="zero"),
    _lax("floor", np.floor, avoid=near_integer, grad="zero"),
    _lax("ceil", np.ceil, avoid=near_integer, grad="zero"),
    _lax("round", lambda x: np.sign(x) * np.floor(np.abs(x) + 0.5), avoid=near_half_integer, grad="zero"),
    _lax(
        "round[even]",
        lambda x: np.round(x),
        fn=lambda x: LAX.round(x, LAX.RoundingMethod.TO_NEAREST_EVEN),
        avoid=near_half_integer,
        grad="zero",
    ),
    _lax("is_finite", np.isfinite, grad="no", specials=True),
    _lax("real", np.real),
    _lax("imag", np.imag, grad="zero"),
    _lax("conj", np.conj),
    _lax("add", np.add, 2, shapes=shapes_of(2)),
    _lax("sub", np.subtract, 2),
    _lax("mul", np.multiply, 2),
    _lax("div", np.divide, args=(Arg(), _nonzero)),
    _lax(
        "div[int]",
        lambda x, y: (np.sign(x) * np.sign(y) * (np.abs(x) // np.abs(y))).astype(x.dtype),
        fn=LAX.div,
        args=(_int_arg, _int_nonzero),
        dtypes=(),
        other_dtypes=INTS,
    ),
    _lax("rem", np.fmod, args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    _lax("pow", np.power, args=(_pos, Arg())),
    _lax(
        "integer_pow",
        lambda x, y: x**y,
        fn=lambda x, y: LAX.integer_pow(x, y),
        kwargs=_kw(y=st.integers(-3, 4)),
        lo=0.3,
        hi=2.0,
        example_kwargs={"y": 3},
    ),
    _lax("atan2", np.arctan2, args=(Arg(), _nonzero)),
    _lax("max", np.maximum, 2, valid=valid_not_tied),
    _lax("min", np.minimum, 2, valid=valid_not_tied),
    _lax("clamp", lambda x: np.clip(x, -0.5, 0.7), fn=lambda x: LAX.clamp(-0.5, x, 0.7), avoid=(-0.5, 0.7)),
    _lax("eq", np.equal, 2, grad="no", args=(Arg(-1, 1, kind="int"),) * 2),
    _lax("ne", np.not_equal, 2, grad="no", args=(Arg(-1, 1, kind="int"),) * 2),
    _lax("lt", np.less, 2, grad="no"),
    _lax("le", np.less_equal, 2, grad="no"),
    _lax("gt", np.greater, 2, grad="no"),
    _lax("ge", np.greater_equal, 2, grad="no"),
    _lax("select", np.where, args=(Arg(kind="bool", diff=False), Arg(), Arg())),
    _lax("bitwise_and", np.bitwise_and, 2, dtypes=(), other_dtypes=INTS + (BOOL,), grad="no", lo=-9, hi=9),
    _lax("bitwise_or", np.bitwise_or, 2, dtypes=(), other_dtypes=INTS + (BOOL,), grad="no", lo=-9, hi=9),
    _lax("bitwise_xor", np.bitwise_xor, 2, dtypes=(), other_dtypes=INTS + (BOOL,), grad="no", lo=-9, hi=9),
    _lax("bitwise_not", np.invert, dtypes=(), other_dtypes=INTS + (BOOL,), grad="no", lo=-9, hi=9),
    _lax(
        "shift_left",
        lambda x, y: np.left_shift(x, y),
        args=(Arg(0, 50), Arg(0, 5)),
        dtypes=(),
        other_dtypes=INTS,
        grad="no",
    ),
    _lax(
        "shift_right_arithmetic",
        np.right_shift,
        args=(Arg(-50, 50), Arg(0, 5)),
        dtypes=(),
        other_dtypes=INTS,
        grad="no",
    ),
    _lax(
        "shift_right_logical",
        lambda x, y: (
            x.view(np.dtype(f"u{x.dtype.itemsize}")) >> y.astype(np.dtype(f"u{x.dtype.itemsize}"))
        ).view(x.dtype),
        args=(Arg(-50, 50), Arg(0, 5)),
        dtypes=(),
        other_dtypes=INTS,
        grad="no",
    ),
    _lax(
        "convert_element_type",
        lambda x: x.astype(np.float32),
        fn=lambda x: LAX.convert_element_type(x, np.float32),
    ),
    _lax(
        "bitcast_convert_type",
        lambda x: x.view(np.int32 if x.dtype == np.float32 else np.int64),
        fn=lambda x: LAX.bitcast_convert_type(x, np.int32 if x.dtype == np.float32 else np.int64),
        grad="no",
    ),
    _lax("stop_gradient", lambda x: x, grad="skip"),
    _lax("zeros_like_array", np.zeros_like, grad="zero"),
    _lax("full_like", lambda x: np.full_like(x, 2.5), fn=lambda x: LAX.full_like(x, 2.5), grad="zero"),
    _lax(
        "reduce_sum",
        lambda x, axes: np.sum(x, axis=axes),
        kwargs=_lax_axes_kwargs,
        example_kwargs={"axes": (1,)},
    ),
    _lax(
        "reduce_prod",
        lambda x, axes: np.prod(x, axis=axes),
        kwargs=_lax_axes_kwargs,
        lo=0.3,
        hi=1.6,
        example_kwargs={"axes": (0, 1)},
    ),
    _lax(
        "reduce_max",
        lambda x, axes: np.max(x, axis=axes),
        args=(_distinct,),
        kwargs=_lax_axes_kwargs,
        example_kwargs={"axes": (1,)},
    ),
    _lax(
        "reduce_min",
        lambda x, axes: np.min(x, axis=axes),
        args=(_distinct,),
        kwargs=_lax_axes_kwargs,
        example_kwargs={"axes": (0,)},
    ),
    _lax(
        "reduce_and",
        lambda x, axes: np.all(x, axis=axes),
        args=(Arg(kind="bool"),),
        kwargs=_lax_axes_kwargs,
        grad="no",
        example_kwargs={"axes": (1,)},
    ),
    _lax(
        "reduce_or",
        lambda x, axes: np.any(x, axis=axes),
        args=(Arg(kind="bool"),),
        kwargs=_lax_axes_kwargs,
        grad="no",
        example_kwargs={"axes": (1,)},
    ),
    _lax(
        "argmax",
        lambda x, axis: np.argmax(x, axis=axis),
        fn=lambda x, axis: LAX.argmax(x, axis),
        args=(_distinct,),
        shapes=_one_plus_lax,
        kwargs=lambda s: st.fixed_dictionaries({"axis": st.integers(0, len(s[0]) - 1)}),
        grad="no",
        example_kwargs={"axis": 1},
    ),
    _lax(
        "argmin",
        lambda x, axis: np.argmin(x, axis=axis),
        fn=lambda x, axis: LAX.argmin(x, axis),
        args=(_distinct,),
        shapes=_one_plus_lax,
        kwargs=lambda s: st.fixed_dictionaries({"axis": st.integers(0, len(s[0]) - 1)}),
        grad="no",
        example_kwargs={"axis": 0},
    ),
    _lax(
        "cumsum",
        _np_cum(np.cumsum),
        shapes=_one_plus_lax,
        kwargs=_lax_cum_kwargs,
        example_kwargs={"axis": 0, "reverse": True},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    _lax(
        "cumprod",
        _np_cum(np.cumprod),
        shapes=_one_plus_lax,
        kwargs=_lax_cum_kwargs,
        lo=0.5,
        hi=1.5,
        example_kwargs={"axis": 1, "reverse": False},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    _lax(
        "cummax",
        _np_cum(np.maximum.accumulate),
        args=(_distinct,),
        shapes=_one_plus_lax,
        kwargs=_lax_cum_kwargs,
        example_kwargs={"axis": 1, "reverse": False},
    ),
    _lax(
        "cummin",
        _np_cum(np.minimum.accumulate),
        args=(_distinct,),
        shapes=_one_plus_lax,
        kwargs=_lax_cum_kwargs,
        example_kwargs={"axis": 0, "reverse": True},
    ),
    _lax(
        "cumlogsumexp",
        _np_cum(_np_cumlogsumexp),
        shapes=_one_plus_lax,
        kwargs=_lax_cum_kwargs,
        example_kwargs={"axis": 1, "reverse": False},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    _lax(
        "associative_scan",
        _np_cum(np.cumsum),
        shapes=_one_plus_lax,
        kwargs=_lax_cum_kwargs,
        fn=lambda x, axis, reverse: LAX.associative_scan(LAX.add, x, reverse=reverse, axis=axis),
        example_kwargs={"axis": 0, "reverse": False},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    _lax(
        "associative_scan[max]",
        _np_cum(np.maximum.accumulate),
        args=(_distinct,),
        shapes=_one_plus_lax,
        kwargs=_lax_cum_kwargs,
        example_kwargs={"axis": 1, "reverse": True},
        fn=lambda x, axis, reverse: LAX.associative_scan(LAX.max, x, reverse=reverse, axis=axis),
    ),
    _lax(
        "sort",
        lambda x, dimension: np.sort(x, axis=dimension),
        args=(_distinct,),
        shapes=_one_plus_lax,
        fn=lambda x, dimension: LAX.sort(x, dimension),
        kwargs=lambda s: st.fixed_dictionaries({"dimension": st.integers(-len(s[0]), len(s[0]) - 1)}),
        example_kwargs={"dimension": -1},
    ),
    _lax(
        "sort_key_val",
        lambda k, v: [np.sort(k, -1), np.take_along_axis(v, np.argsort(k, -1), -1)],
        fn=lambda k, v: list(LAX.sort_key_val(k, v)),
        args=(_distinct, Arg()),
        shapes=shapes_of(2, min_dims=1),
    ),
    _lax(
        "top_k",
        lambda x, k: [-np.sort(-x, -1)[..., :k], np.argsort(-x, -1, stable=True)[..., :k]],
        fn=lambda x, k: list(LAX.top_k(x, k)),
        args=(_distinct,),
        shapes=_one_plus_lax,
        kwargs=lambda s: st.fixed_dictionaries({"k": st.integers(1, s[0][-1])}),
        example_kwargs={"k": 1},
    ),
    _lax(
        "dot",
        np.dot,
        args=(Arg(), Arg()),
        shapes=st.sampled_from([((2, 3), (3, 4)), ((3,), (3,)), ((2, 3), (3,))]),
        example_shapes=((2, 3), (3, 4)),
        fwd_tol=_PROD_TOL,
    ),
    _lax(
        "concatenate",
        lambda a, b, dimension: np.concatenate([a, b], dimension),
        fn=lambda a, b, dimension: LAX.concatenate([a, b], dimension),
        args=(Arg(), Arg()),
        shapes=_same(2, _one_plus),
        kwargs=lambda s: st.fixed_dictionaries({"dimension": st.integers(0, len(s[0]) - 1)}),
        example_shapes=((2, 3),) * 2,
        example_kwargs={"dimension": 1},
    ),
    _lax(
        "broadcast",
        lambda x, sizes: np.broadcast_to(x, tuple(sizes) + x.shape),
        kwargs=_kw(sizes=st.lists(st.integers(1, 3), max_size=2).map(tuple)),
        example_kwargs={"sizes": (2,)},
    ),
    _lax(
        "broadcast_in_dim",
        lambda x, shape, broadcast_dimensions: np.broadcast_to(x.reshape(x.shape + (1,)), shape),
        fn=lambda x, shape, broadcast_dimensions: LAX.broadcast_in_dim(x, shape, broadcast_dimensions),
        shapes=st.just(((3, 2),)),
        kwargs=lambda s: st.just({"shape": (3, 2, 4), "broadcast_dimensions": (0, 1)}),
        example_shapes=((3, 2),),
        example_kwargs={"shape": (3, 2, 4), "broadcast_dimensions": (0, 1)},
    ),
    _lax(
        "reshape",
        lambda x, new_sizes: x.reshape(new_sizes),
        fn=lambda x, new_sizes: LAX.reshape(x, new_sizes),
        kwargs=lambda s: st.sampled_from(
            [{"new_sizes": (int(np.prod(s[0])),)}, {"new_sizes": (1, int(np.prod(s[0])))}]
        ),
        example_kwargs={"new_sizes": (6,)},
    ),
    _lax(
        "transpose",
        lambda x, permutation: np.transpose(x, permutation),
        fn=lambda x, permutation: LAX.transpose(x, permutation),
        kwargs=lambda s: st.permutations(list(range(len(s[0])))).map(lambda p: {"permutation": tuple(p)}),
        example_kwargs={"permutation": (1, 0)},
    ),
    _lax(
        "rev",
        lambda x, dimensions: np.flip(x, dimensions),
        fn=lambda x, dimensions: LAX.rev(x, dimensions),
        kwargs=lambda s: _lax_axes_kwargs(s).map(lambda d: {"dimensions": d["axes"]}),
        example_kwargs={"dimensions": (0,)},
    ),
    _lax(
        "squeeze",
        lambda x, dimensions: np.squeeze(x, dimensions),
        fn=lambda x, dimensions: LAX.squeeze(x, dimensions),
        shapes=st.just(((3, 1, 2, 1),)),
        kwargs=lambda s: st.sampled_from(
            [{"dimensions": (1,)}, {"dimensions": (1, 3)}, {"dimensions": (3,)}]
        ),
        example_shapes=((3, 1, 2, 1),),
        example_kwargs={"dimensions": (1,)},
    ),
    _lax(
        "expand_dims",
        lambda x, dimensions: np.expand_dims(x, dimensions),
        fn=lambda x, dimensions: LAX.expand_dims(x, dimensions),
        kwargs=lambda s: st.sampled_from(
            [{"dimensions": (0,)}, {"dimensions": (len(s[0]),)}] + ([{"dimensions": (0, 2)}] if s[0] else [])
        ),
        example_kwargs={"dimensions": (0,)},
    ),
    _lax(
        "slice",
        lambda x, start, limit, strides: x[
            tuple(slice(a, b, c) for a, b, c in zip(start, limit, strides, strict=True))
        ],
        fn=lambda x, start, limit, strides: LAX.slice(x, start, limit, strides),
        shapes=st.just(((4, 5),)),
        kwargs=lambda s: st.sampled_from(
            [
                {"start": (1, 0), "limit": (3, 5), "strides": (1, 2)},
                {"start": (0, 2), "limit": (4, 4), "strides": (3, 1)},
            ]
        ),
        example_shapes=((4, 5),),
        example_kwargs={"start": (1, 0), "limit": (3, 5), "strides": (1, 2)},
    ),
    _lax(
        "slice_in_dim",
        lambda x, a, b, stride, axis: np.take(x, np.arange(a, b, stride), axis=axis),
        fn=lambda x, a, b, stride, axis: LAX.slice_in_dim(x, a, b, stride, axis),
        shapes=st.just(((4, 5),)),
        kwargs=lambda s: st.sampled_from(
            [{"a": 1, "b": 4, "stride": 2, "axis": 1}, {"a": 0, "b": 3, "stride": 1, "axis": 0}]
        ),
        example_shapes=((4, 5),),
        example_kwargs={"a": 1, "b": 4, "stride": 2, "axis": 1},
    ),
    _lax(
        "index_in_dim",
        lambda x, index, axis: np.take(x, [index], axis=axis),
        fn=lambda x, index, axis: LAX.index_in_dim(x, index, axis),
        shapes=_one(_one_plus),
        kwargs=lambda s: st.integers(0, len(s[0]) - 1).flatmap(
            lambda ax: st.fixed_dictionaries({"index": st.integers(0, s[0][ax] - 1), "axis": st.just(ax)})
        ),
        example_kwargs={"index": 1, "axis": 0},
    ),
    # JAX's dynamic_slice: a negative start counts from the end, then starts are clamped
    _lax(
        "dynamic_slice",
        lambda x, start, sizes: x[_np_dynamic_block(x.shape, start, sizes)],
        fn=lambda x, start, sizes: LAX.dynamic_slice(x, start, sizes),
        shapes=st.just(((4, 5),)),
        kwargs=lambda s: st.sampled_from(
            [{"start": (1, 2), "sizes": (2, 3)}, {"start": (3, -1), "sizes": (2, 2)},
             {"start": (-9, 7), "sizes": (4, 1)}]
        ),
        example_shapes=((4, 5),),
        example_kwargs={"start": (3, -1), "sizes": (2, 2)},
    ),
    _lax(
        "dynamic_slice_in_dim",
        lambda x, start, size, axis: x[_np_dynamic_block(
            x.shape, tuple(start if d == axis else 0 for d in range(x.ndim)),
            tuple(size if d == axis else n for d, n in enumerate(x.shape)))],
        fn=lambda x, start, size, axis: LAX.dynamic_slice_in_dim(x, start, size, axis),
        shapes=st.just(((4, 5),)),
        kwargs=lambda s: st.sampled_from(
            [{"start": 3, "size": 3, "axis": 1}, {"start": -2, "size": 1, "axis": 0}]
        ),
        example_shapes=((4, 5),),
        example_kwargs={"start": 3, "size": 3, "axis": 1},
    ),
    _lax(
        "dynamic_index_in_dim",
        lambda x, index, axis: np.take(x, [min(max(index + x.shape[axis] if index < 0 else index, 0),
                                               x.shape[axis] - 1)], axis=axis),
        fn=lambda x, index, axis: LAX.dynamic_index_in_dim(x, index, axis),
        shapes=st.just(((4, 5),)),
        kwargs=lambda s: st.sampled_from([{"index": 7, "axis": 1}, {"index": -1, "axis": 0}]),
        example_shapes=((4, 5),),
        example_kwargs={"index": 7, "axis": 1},
    ),
    _lax(
        "dynamic_update_slice",
        lambda x, u, start: _np_dynamic_update(x, u, start),
        nargs=2,
        fn=lambda x, u, start: LAX.dynamic_update_slice(x, u, start),
        shapes=st.just(((4, 5), (2, 3))),
        kwargs=lambda s: st.sampled_from([{"start": (1, 1)}, {"start": (3, -1)}, {"start": (-9, 4)}]),
        example_shapes=((4, 5), (2, 3)),
        example_kwargs={"start": (3, -1)},
    ),
]


def _np_dynamic_block(shape, start, sizes) -> tuple:
    """The block JAX's dynamic_slice reads: negative starts wrap once, then clamp."""
    block = []
    for n, s, k in zip(shape, start, sizes):
        s = s + n if s < 0 else s
        s = min(max(s, 0), n - k)
        block.append(slice(s, s + k))
    return tuple(block)


def _np_dynamic_update(x, u, start):
    out = np.array(x, copy=True)
    out[_np_dynamic_block(x.shape, start, u.shape)] = u
    return out


# --------------------------------------------------------------------------------------
# lax control flow (functions as arguments)


def _np_scan(c, xs):
    ys = []
    for x in xs:
        c, y = c * x + 1.0, c * 2.0
        ys.append(y)
    return c, np.stack(ys)


def _np_fori(x):
    for i in range(3):
        x = x * 0.9 + np.sin(x) * i
    return x


def _np_while(x):
    i = 0
    while i < 4:
        i, x = i + 1, x * 1.1 + 0.1
    return x


_BRANCHES_NP = [np.sin, np.cos, np.tanh]

ROWS += [
    OpRow(
        "lax.cond",
        lambda p, x: LAX.cond(p > 0, fnp.sin, fnp.cos, x),
        lambda p, x: np.sin(x) if p > 0 else np.cos(x),
        args=(Arg(-1, 1, avoid=(0.0,), diff=False), Arg()),
        shapes=hnp.array_shapes(max_dims=2).map(lambda s: ((), s)),
        example_shapes=((), (3,)),
        covers=("lax.cond",),
    ),
    OpRow(
        "lax.switch",
        lambda i, x: LAX.switch(i, [fnp.sin, fnp.cos, fnp.tanh], x),
        lambda i, x: _BRANCHES_NP[int(np.clip(i, 0, 2))](x),
        args=(Arg(-1, 3, kind="int", dtype=np.int64), Arg()),
        shapes=hnp.array_shapes(max_dims=2).map(lambda s: ((), s)),
        example_shapes=((), (3,)),
        covers=("lax.switch",),
    ),
    OpRow(
        "lax.fori_loop",
        # NumPy promotion: the int64 index would turn a float32 carry into float64 (JAX's index
        # is weakly typed and would not), so the body casts it, as NumPy code must.
        lambda x: LAX.fori_loop(0, 3, lambda i, c: c * 0.9 + fnp.sin(c) * i.astype(c.dtype), x),
        _np_fori,
        covers=("lax.fori_loop",),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)},
    ),
    OpRow(
        "lax.while_loop",
        lambda x: LAX.while_loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, c[1] * 1.1 + 0.1), (0, x))[1],
        _np_while,
        modes=("fwd",),
        covers=("lax.while_loop",),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)},
    ),
    OpRow(
        "lax.scan",
        lambda c, xs: LAX.scan(lambda c, x: (c * x + 1.0, c * 2.0), c, xs),
        _np_scan,
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=2), st.integers(1, 4)).map(
            lambda t: (t[0], (t[1],) + t[0])
        ),
        example_shapes=((2,), (3, 2)),
        covers=("lax.scan",),
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "lax.map",
        lambda xs: LAX.map(fnp.sin, xs),
        np.sin,
        shapes=shapes_of(1, min_dims=1),
        covers=("lax.map",),
    ),
    OpRow(
        "lax.dot_general",
        # batched matmul: contract a's last with b's middle axis, batch over axis 0
        lambda a, b: LAX.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))),
        lambda a, b: np.einsum("bij,bjk->bik", a, b),
        args=(Arg(), Arg()),
        shapes=st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)).map(
            lambda t: ((t[0], t[1], t[2]), (t[0], t[2], t[3]))
        ),
        example_shapes=((2, 3, 4), (2, 4, 2)),
        covers=("lax.dot_general",),
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "lax.pad",
        lambda x: LAX.pad(x, 0.0, ((1, 2, 0), (0, 1, 1))),
        lambda x: _np_lax_pad(x, ((1, 2, 0), (0, 1, 1))),
        shapes=st.tuples(st.integers(1, 3), st.integers(1, 3)).map(lambda t: (t,)),
        example_shapes=((2, 3),),
        covers=("lax.pad",),
    ),
]


def _np_lax_pad(x, config):
    """Reference for lax.pad: interior padding then edge padding, with zeros."""
    for axis, (lo, hi, interior) in enumerate(config):
        n = x.shape[axis]
        if interior and n > 1:
            shape = list(x.shape)
            shape[axis] = n + (n - 1) * interior
            out = np.zeros(shape, x.dtype)
            idx = [slice(None)] * x.ndim
            idx[axis] = slice(None, None, interior + 1)
            out[tuple(idx)] = x
            x = out
        widths = [(0, 0)] * x.ndim
        widths[axis] = (lo, hi)
        x = np.pad(x, widths)
    return x


# --------------------------------------------------------------------------------------
# transforms as ops: custom rules and jit run through every per-op check too


@fgrad.custom_jvp
def _log1pexp(x):
    return fnp.log1p(fnp.exp(x))


@_log1pexp.defjvp
def _log1pexp_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _log1pexp(x), t * (1.0 / (1.0 + fnp.exp(-x)))


@fgrad.custom_vjp
def _sin_cvjp(x):
    return fnp.sin(x)


_sin_cvjp.defvjp(lambda x: (fnp.sin(x), fnp.cos(x)), lambda cos_x, g: (g * cos_x,))


def _jit_composite(x, y):
    return fnp.sin(x) * y + fnp.sum(x**2, axis=-1, keepdims=True) / 3.0


ROWS += [
    unary(
        "custom_jvp",
        fn=_log1pexp,
        ref=lambda x: np.log1p(np.exp(x)),
        lo=-4,
        hi=4,
        covers=("custom_jvp",),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)},
    ),
    unary("custom_vjp", fn=_sin_cvjp, ref=np.sin, modes=("rev",), covers=("custom_vjp",)),
    OpRow(
        "jit",
        fgrad.jit(_jit_composite),
        lambda x, y: np.sin(x) * y + np.sum(x**2, axis=-1, keepdims=True) / 3.0,
        args=(Arg(), Arg()),
        shapes=shapes_of(2, min_dims=1),
        covers=("jit",),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)},
    ),
    OpRow(
        "jit[while_loop]",
        fgrad.jit(
            lambda x: LAX.while_loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, c[1] * 1.1 + 0.1), (0, x))[1]
        ),
        _np_while,
        modes=("fwd",),
        covers=("jit",),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)},
    ),
    OpRow(
        "jit[cond]",
        fgrad.jit(lambda p, x: LAX.cond(p > 0, fnp.sin, fnp.cos, x)),
        lambda p, x: np.sin(x) if p > 0 else np.cos(x),
        args=(Arg(-1, 1, avoid=(0.0,), diff=False), Arg()),
        shapes=hnp.array_shapes(max_dims=2).map(lambda s: ((), s)),
        example_shapes=((), (3,)),
        covers=("jit",),
    ),
]


# --------------------------------------------------------------------------------------
# Names in the public namespaces that are deliberately not rows (with the reason).  The
# coverage test fails for any other public function without a row.

_INDEX_HELPERS = (
    "diag_indices",
    "diag_indices_from",
    "tril_indices",
    "tril_indices_from",
    "triu_indices",
    "triu_indices_from",
    "indices",
    "ix_",
    "ravel_multi_index",
    "unravel_index",
)
NOT_OPS = {
    "numpy": {
        # array creation: no array inputs; tested in tests/test_op_table.py::test_creation
        **{
            n: "creation"
            for n in (
                "array",
                "asarray",
                "zeros",
                "ones",
                "full",
                "empty",
                "zeros_like",
                "ones_like",
                "full_like",
                "empty_like",
                "arange",
                "linspace",
                "logspace",
                "eye",
                "identity",
                "tri",
            )
        },
        # integer index construction from shapes: tested in test_creation
        **{n: "index construction" for n in _INDEX_HELPERS},
        # static shape queries (return Python values)
        "shape": "static query",
        "ndim": "static query",
        "size": "static query",
        "broadcast_shapes": "static query (shapes in, shape out)",
    },
    "lax": {"iota": "creation", "full": "creation"},
    # sampling has no NumPy reference: tests/test_random.py checks distributions and keys, and
    # tests/test_transforms.py checks random functions under vmap / jit / grad
    "random": {
        n: "sampling"
        for n in (
            "PRNGKey",
            "bernoulli",
            "bits",
            "categorical",
            "cauchy",
            "choice",
            "clone",
            "exponential",
            "fold_in",
            "gumbel",
            "key",
            "key_data",
            "laplace",
            "logistic",
            "normal",
            "permutation",
            "rademacher",
            "randint",
            "split",
            "threefry2x32",
            "truncated_normal",
            "uniform",
            "wrap_key_data",
        )
    },
    "nn": {},
    "numpy.linalg": {},
}
# Internal helpers that leak into public namespaces through imports (not API; reported).
LEAKED_HELPERS = {
    "numpy": {
        "get_aval",
        "wrap",
        "normalize_axes",
        "normalize_axis",
        "moveaxis_one",
        "abs_",
        "convert_element_type",
        "ArrayImpl",
        "Tracer",
        "ndarray",
    },
    "numpy.linalg": {
        "broadcast_to",
        "get_aval",
        "normalize_axis",
        "reduce_max",
        "reduce_min",
        "reduce_sum",
        "reshape",
        "transpose",
    },
    "lax": {"get_aval", "wrap"},
    "nn": {"get_aval", "normalize_axes", "normalize_axis"},
}


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
    ``NOT_OPS[namespace]`` / ``LEAKED_HELPERS[namespace]``).  Aliases (``absolute`` is
    ``abs``) count as covered."""
    funcs = public_functions(namespace)
    covered = covered_names()
    covered_objs = {
        id(funcs[n.split(".")[-1]])
        for n in covered
        if n.rsplit(".", 1)[0] == namespace and n.split(".")[-1] in funcs
    }
    missing = []
    for n, f in sorted(funcs.items()):
        if f"{namespace}.{n}" in covered or id(f) in covered_objs:
            continue
        if n in NOT_OPS.get(namespace, {}) or n in LEAKED_HELPERS.get(namespace, set()):
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
        if "fwd" in row.modes:
            names |= record_primitives(lambda: fgrad.jvp(g, tuple(dargs), tuple(tans)))

        def rev(*d):
            out, f_vjp = fgrad.vjp(g, *d)
            leaves, tree = tree_flatten(out)
            return f_vjp(tree_unflatten(tree, [fnp.ones_like(o) for o in leaves]))

        if "rev" in row.modes:
            names |= record_primitives(rev, *dargs)
            stacked = [fnp.asarray(np.stack([np.asarray(a)] * 2)) for a in dargs]
            names |= record_primitives(lambda: fgrad.vmap(rev)(*stacked))
    if row.vmap:
        batched = [fnp.asarray(np.stack([np.asarray(a)] * 2)) for a in args]
        names |= record_primitives(lambda: fgrad.vmap(f)(*batched))
    return names


__all__ = [
    "Arg",
    "OpRow",
    "ROWS",
    "NOT_OPS",
    "LEAKED_HELPERS",
    "unary",
    "binary",
    "reduction",
    "rows_by_name",
    "covered_names",
    "uncovered",
    "public_functions",
    "record_primitives",
    "row_primitives",
    "example_args",
    "shapes_of",
    "broadcast_shapes_of",
    "axis_kwargs",
    "one_axis_kwargs",
    "near_integer",
    "near_half_integer",
]
