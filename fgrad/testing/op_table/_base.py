"""Building blocks of the op table: argument generators, shape/keyword strategies, `OpRow`
and the row constructors (`unary`, `binary`, `reduction`)."""


from __future__ import annotations

import dataclasses
import math
from typing import Any, Callable

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fgrad.numpy as fnp
from ...core.inexact import to_inexact_dtype, to_numeric_dtype
from ..device_numerics import flush_subnormals, flushes_float32_subnormals

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
    ``ftz_ref``: the reference on a backend that flushes float32 subnormals, where flushing
    the inputs and outputs of ``ref`` is not enough (``nextafter`` and ``spacing`` skip the
    subnormals there); see `call_ref_like_device`.
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
    ftz_ref: Callable | None = None

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

    def call_ref_like_device(self, np_args, kwargs, backend=None):
        """`call_ref` as ``backend`` (default: the default device's) computes it: on one that
        flushes float32 subnormals (CUDA's ``-ftz``), float32 subnormal inputs and outputs of
        the reference are flushed to zeros of their sign (``ftz_ref`` replaces ``ref``
        where given); elsewhere plain `call_ref`."""
        if not flushes_float32_subnormals(backend):
            return self.call_ref(np_args, kwargs)
        ref = self.ftz_ref or self.ref
        return flush_subnormals(ref(*[flush_subnormals(a) for a in np_args], **kwargs))

    def diff_argnums(self, dtype) -> tuple:
        return tuple(
            i
            for i, a in enumerate(self.args)
            if a.diff and a.kind in ("float", "distinct") and a.dtype_for(dtype).kind == "f"
        )


def jax_promoted(ref: Callable, promote: str = "inexact") -> Callable:
    """NumPy's ``ref`` with JAX's operand dtypes: with ``promote="inexact"`` (a float-only
    function) array arguments that are all bool/integer are cast to JAX's inexact dtype of
    their join first (`fgrad.core.inexact`: ``int32 -> float32``, where NumPy computes in
    float64); with ``"numeric"`` arguments that are all bool are cast to int32.  Other
    arguments reach ``ref`` as they are.

    Example::

        >>> jax_promoted(np.sqrt)(np.array([4], np.int8))
        array([2.], dtype=float32)
    """

    def promoted(*args, **kwargs):
        arrays = [a for a in args if isinstance(a, np.ndarray)]
        kinds = {a.dtype.kind for a in arrays}
        if promote == "inexact" and arrays and kinds <= set("biu"):
            target = to_inexact_dtype(np.result_type(*arrays))
        elif promote == "numeric" and arrays and kinds == {"b"}:
            target = to_numeric_dtype(np.bool_)
        else:
            return ref(*args, **kwargs)
        return ref(*[a.astype(target) if isinstance(a, np.ndarray) else a for a in args], **kwargs)

    promoted.__name__ = getattr(ref, "__name__", "ref")
    return promoted


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


def _as_input_dtype(ref):
    """``ref`` with its result in the first argument's dtype (JAX's quantiles and
    polynomials keep float32, where NumPy computes float64)."""
    return lambda a, *rest, **kw: np.asarray(ref(a, *rest, **kw)).astype(np.asarray(a).dtype)
