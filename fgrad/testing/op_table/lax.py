"""fgrad.lax rows (JAX lax names)."""

from __future__ import annotations

from hypothesis import strategies as st
import ml_dtypes
import numpy as np

from ..device_numerics import ftz_nextafter
import fgrad

from ._base import (
    Arg, BOOL, F32, F64, INTS, OpRow, lookup, near_half_integer, near_integer, shapes_of, valid_mod,
    valid_not_tied,
)
from .elementwise import _int_arg, _int_nonzero, _nonzero, _pos
from .nn import _np_erf, _np_erfc, _np_erfinv, _np_expit
from .products import _PROD_TOL
from .reductions import _distinct
from .structural import _kw, _one, _one_plus, _same

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# fgrad.lax: JAX lax names (thin wrappers over the primitives)

LAX = fgrad.lax
_BF16 = np.dtype(ml_dtypes.bfloat16)


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


def _np_ragged_dot(lhs, rhs, sizes):
    """Row ``r`` of group ``g`` (consecutive groups of ``sizes`` rows) times ``rhs[g]``; rows
    past ``sum(sizes)`` zero."""
    out = np.zeros((lhs.shape[0], rhs.shape[2]), np.result_type(lhs, rhs))
    start = 0
    for g, n in enumerate(sizes):
        out[start:start + n] = lhs[start:start + n] @ rhs[g]
        start += n
    return out


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
    # JAX's lax.real/imag take complex numbers only: the row's real input x enters as x + 2x i
    _lax("real", lambda x: np.real(x + 2j * x).astype(x.dtype), fn=lambda x: LAX.real(LAX.complex(x, x * 2))),
    _lax("imag", lambda x: np.imag(x + 2j * x).astype(x.dtype), fn=lambda x: LAX.imag(LAX.complex(x, x * 2))),
    _lax("conj", lambda x: np.conj(x).astype(np.result_type(x.dtype, np.complex64)),  # complex always (JAX)
         grad="skip"),  # real input, complex output: derivatives in tests/test_lax_round10.py
    _lax("complex", lambda x, y: x + 1j * y, 2, grad="skip"),  # complex output: tests/test_lax_more.py
    _lax("reciprocal", lambda x: 1 / x, args=(_nonzero,)),
    _lax("select_n", lambda w, a, b: np.where(w, b, a), args=(Arg(kind="bool", diff=False), Arg(), Arg())),
    _lax("select_n[int]", lambda w, a, b, c: np.choose(w.astype(np.int32), [a, b, c]),
         fn=lambda w, a, b, c: LAX.select_n(fgrad.numpy.asarray(w).astype(np.int32), a, b, c),
         args=(Arg(0, 2, kind="int", diff=False), Arg(), Arg(), Arg())),
    _lax("reduce", lambda x: np.logaddexp.reduce(x, axis=-1),
         fn=lambda x: LAX.reduce(x, -np.inf, fgrad.numpy.logaddexp, (x.ndim - 1,)), shapes=_one_plus_lax,
         fwd_tol={F32: (1e-6, 1e-5), F64: (1e-13, 1e-12)}),
    _lax("reduce_xor", lambda x: np.bitwise_xor.reduce(x, axis=-1),
         fn=lambda x: LAX.reduce_xor(x, (x.ndim - 1,)), shapes=_one_plus_lax, args=(_int_arg,), dtypes=(),
         other_dtypes=INTS, grad="no"),
    _lax("population_count", lambda x: np.vectorize(lambda v: bin(int(v) & ((1 << (8 * x.itemsize)) - 1))
                                                    .count("1"), otypes=[x.dtype])(x),
         args=(_int_arg,), dtypes=(), other_dtypes=INTS, grad="no"),
    _lax("clz", lambda x: np.vectorize(lambda v: 8 * x.itemsize - (int(v) & ((1 << (8 * x.itemsize)) - 1))
                                       .bit_length(), otypes=[x.dtype])(x),
         args=(_int_arg,), dtypes=(), other_dtypes=INTS, grad="no"),
    _lax("dynamic_update_slice_in_dim", lambda x, u: np.concatenate([x[:1], u, x[3:]]), 2,
         fn=lambda x, u: LAX.dynamic_update_slice_in_dim(x, u, 1, axis=0), shapes=st.just(((4, 3), (2, 3))),
         example_shapes=((4, 3), (2, 3))),
    _lax("dynamic_update_index_in_dim", lambda x, u: np.concatenate([x[:2], u[None], x[3:]]), 2,
         fn=lambda x, u: LAX.dynamic_update_index_in_dim(x, u, 2, axis=0), shapes=st.just(((4, 3), (3,))),
         example_shapes=((4, 3), (3,))),
    _lax("index_take", lambda x: x[np.array([2, 0, 2])],
         fn=lambda x: LAX.index_take(x, (np.array([2, 0, 2]),), (0,)), shapes=st.just(((3, 4),)),
         example_shapes=((3, 4),)),
    _lax("collapse", lambda x: x.reshape(6, 4), fn=lambda x: LAX.collapse(x, 0, 2),
         shapes=st.just(((2, 3, 4),)),
         example_shapes=((2, 3, 4),)),
    _lax("split", lambda x: [x[:1], x[1:]], fn=lambda x: list(LAX.split(x, (1, 2))),
         shapes=st.just(((3, 2),)),
         example_shapes=((3, 2),)),
    _lax("unstack", lambda x: list(x), fn=lambda x: list(LAX.unstack(x)), shapes=st.just(((3, 2),)),
         example_shapes=((3, 2),)),
    _lax("stack", lambda a, b: np.stack([a, b], axis=1), 2, fn=lambda a, b: LAX.stack([a, b], axis=1),
         shapes=st.just(((2, 3), (2, 3))), example_shapes=((2, 3), (2, 3))),
    _lax("tile", lambda x: np.tile(x, (2, 1)), fn=lambda x: LAX.tile(x, (2, 1)), shapes=st.just(((2, 3),)),
         example_shapes=((2, 3),)),
    _lax("broadcast_to_rank", lambda x: x.reshape((1,) * (3 - x.ndim) + x.shape) if x.ndim < 3 else x,
         fn=lambda x: LAX.broadcast_to_rank(x, 3)),
    _lax("batch_matmul", np.matmul, 2, shapes=st.just(((2, 3, 4), (2, 4, 5))),
         example_shapes=((2, 3, 4), (2, 4, 5)),
         fwd_tol=_PROD_TOL),
    _lax("ragged_dot", lambda a, b: _np_ragged_dot(a, b, (2, 0, 3)), 2,
         fn=lambda a, b: LAX.ragged_dot(a, b, np.array([2, 0, 3])),
         shapes=st.just(((6, 3), (3, 3, 2))), example_shapes=((6, 3), (3, 3, 2)), fwd_tol=_PROD_TOL),
    _lax("reduce_precision", lambda x: x.astype(_BF16).astype(x.dtype),
         fn=lambda x: LAX.reduce_precision(x, 8, 7),
         grad="skip"),  # rounding (linear for derivatives by definition): tests/test_lax_more.py
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
    # array bounds: the derivative reaches min and max too (JAX's rule), on disjoint ranges
    _lax("clamp[bounds]", lambda lo, x, hi: np.minimum(np.maximum(x, lo), hi),
         fn=lambda lo, x, hi: LAX.clamp(lo, x, hi),
         args=(Arg(-1.0, -0.3), Arg(-2.0, 2.0, avoid=(-1.0, -0.3, 0.3, 1.0), margin=0.02), Arg(0.3, 1.0))),
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
        lambda x, k: [-np.sort(-x, -1)[..., :k], np.argsort(-x, -1, stable=True)[..., :k].astype(np.int32)],
        fn=lambda x, k: list(LAX.top_k(x, k)),  # (JAX's int32 indices)
        args=(_distinct,),
        shapes=_one_plus_lax,
        kwargs=lambda s: st.fixed_dictionaries({"k": st.integers(1, s[0][-1])}),
        example_kwargs={"k": 1},
    ),
    _lax(
        "approx_max_k",
        lambda x, k: [-np.sort(-x, -1)[..., :k], np.argsort(-x, -1, stable=True)[..., :k].astype(np.int32)],
        fn=lambda x, k: list(LAX.approx_max_k(x, k)),  # exact on CPU, as JAX's
        args=(_distinct,),
        shapes=_one_plus_lax,
        kwargs=lambda s: st.fixed_dictionaries({"k": st.integers(1, s[0][-1])}),
        example_kwargs={"k": 1},
    ),
    _lax(
        "approx_min_k",
        lambda x, k: [np.sort(x, -1)[..., :k], np.argsort(x, -1, stable=True)[..., :k].astype(np.int32)],
        fn=lambda x, k: list(LAX.approx_min_k(x, k)),
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



# the array API's nextafter (lax face) and integer shifts/invert (fgrad.numpy faces)
ROWS += [
    _lax("nextafter", np.nextafter, 2, avoid=(0.0,), ftz_ref=ftz_nextafter),
    OpRow("bitwise_left_shift", fgrad.numpy.bitwise_left_shift, np.left_shift, args=(Arg(0, 50), Arg(0, 5)),
          shapes=shapes_of(2), dtypes=(), other_dtypes=INTS, grad="no"),
    OpRow("bitwise_right_shift", fgrad.numpy.bitwise_right_shift, np.right_shift,
          args=(Arg(-50, 50), Arg(0, 5)), shapes=shapes_of(2), dtypes=(), other_dtypes=INTS, grad="no"),
    OpRow("bitwise_invert", fgrad.numpy.bitwise_invert, np.invert, args=(Arg(-9, 9),), shapes=shapes_of(1),
          dtypes=(), other_dtypes=INTS + (BOOL,), grad="no"),
]
