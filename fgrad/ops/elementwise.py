"""Elementwise primitives: unary math, binary arithmetic, comparisons, select, casts.

Each is made by a family helper that fills in the shared rules (broadcasting shape rule,
NumPy dtype rule, batching rule, fusion template); the op itself contributes only its
implementation and its derivative.  Derivatives are written with fgrad ops, so they can be
differentiated again.
"""

from __future__ import annotations

from typing import Any

from .._config import flag
from ..typing import Array, ArrayLike, Complex

import math

import numpy as np
from ..core.narrow_floats import bfloat16 as BF16, dtype_kind, promote_types
from ..core import native_casts as _native_casts

from ..core.array import ArrayImpl, ShapedArray, Tracer, get_aval, make_aval, wrap
from ..core import x64_mode
from ..core.inexact import inexact_join, to_numeric_dtype
from ..core.weak_types import cast_target, join_is_weak, join_typed, unsigned_meets_signed_64
from .xla_math import XLA_MATH, called_from_torch_face
from ..core.weak_types import level as weak_level
from ..core.constants import zeros_like
from ..core.primitive import Primitive, accept_jax_params
from ..core.rules import (defbilinear, defbroadcasting, defjvp, defjvp2, defjvp_shared, deflinear,
                          deflinear_in, defzero, is_undefined)
from ..core.quiet import quiet
from ._util import broadcast_shapes, dtype, probe_dtype, shape
from .shape import broadcast_to, reduce_sum, reshape

# ---------------------------------------------------------------------------------------
# family rules


def _ew_abstract_eval(prim):
    def rule(*avals, **params):
        shp = avals[0].shape
        for a in avals:
            if a.shape != shp:
                shp = broadcast_shapes(prim.name, *[a.shape for a in avals])
                break
        return make_aval(shp, probe_dtype(prim, avals, params), _result_is_weak(prim, avals, params))

    return rule


def _result_is_weak(prim, avals, params) -> bool:
    """JAX's weak type of an elementwise result: the lattice join of the operands is weak
    (`core.weak_types`); a cast is weak only when asked (``weak_type=True``)."""
    if prim is convert_element_type_p:
        return bool(params.get("weak_type", False))
    strong, weak = [], []
    for a in avals:
        (weak if a.weak_type else strong).append(a.dtype)
    int_exponent = len(avals) == 2 and not avals[1].weak_type and dtype_kind(avals[1].dtype) in "iu"
    return _join_is_weak(prim, strong, weak, int_exponent)


# JAX's implementations of these pass a strongly typed operand through a strongly typed step
# (a select, a comparison with an array constant): their results are weak only when every
# operand is (``jnp.hypot(int32_array, 2.5)`` is a strong float64, ``hypot(2.5, 3)`` a weak one)
_WEAK_ONLY_IF_ALL_WEAK = frozenset({"hypot", "logaddexp2", "logical_and", "logical_or", "logical_xor"})


def _strong_beside_strong(name: str, int_exponent: bool) -> bool:
    """Whether a primitive's result is strong as soon as one operand is (the
    `_WEAK_ONLY_IF_ALL_WEAK` ones, and ``pow`` of a strongly typed integer exponent)."""
    return name in _WEAK_ONLY_IF_ALL_WEAK or (int_exponent and name == "pow")


def _join_is_weak(prim, strong: list, weak: list, int_exponent: bool = False) -> bool:
    """`join_is_weak`, but JAX's ``isinf`` and ``signbit`` compare with a strongly typed
    constant and its ``isfinite`` of integers is ``full_like(x, True, dtype=bool)``: their
    results are never weak (``jnp.isinf(jnp.inf)`` is a strong bool, ``isnan`` a weak one);
    the `_WEAK_ONLY_IF_ALL_WEAK` ones are strong next to any strong operand, and ``pow`` of a
    strongly typed integer exponent (``int_exponent``) is strong (``jnp.power(2.5, int32_array)``)."""
    name = prim.name
    if name in ("isinf", "signbit") or (name == "isfinite" and weak and dtype_kind(weak[0]) not in "fc"):
        return False
    if strong and _strong_beside_strong(name, int_exponent):
        return False
    return join_is_weak(strong, weak)


def _weakness(x) -> int:
    """0: strongly typed; 1: a Python int/float/complex; 2: a weakly typed array."""
    t = type(x)
    if t is ArrayImpl:
        return 2 if x._weak else 0
    if t is int or t is float or t is complex:
        return 1
    if isinstance(x, Tracer):
        return 2 if x.aval.weak_type else 0
    return 0


def _promoting_bind(prim: Primitive):
    """``prim.bind`` with JAX's promotion where NumPy's differs: a weakly typed array is cast
    to the dtype of the strongly typed operands it meets (`core.weak_types.cast_target`),
    bfloat16 meeting another dtype casts the operands to their common dtype, and an eager
    result is marked weak when the operands' join is weak.  The common case (no weak
    operand, no bfloat16) costs a few type checks."""
    plain_bind = prim.bind
    lattice = prim.name in _LATTICE_PRIMS

    def bind(*args, **params):
        if len(args) == 2:  # the common case, without building lists (this runs for every op)
            a, b = args
            ta, tb = type(a), type(b)
            if ta is ArrayImpl and not a._weak:  # eager fast paths: array-array, array-scalar
                if tb in _PY_LEVEL:
                    return _scalar_bind(prim, plain_bind, args, b, a, params)
            elif ta in _PY_LEVEL and tb is ArrayImpl and not b._weak:
                return _scalar_bind(prim, plain_bind, args, a, b, params)
            if _weakness(a) or _weakness(b):
                return _weak_bind(prim, plain_bind, args, params)
            da, db = getattr(a, "dtype", None), getattr(b, "dtype", None)
            if (da is BF16 or db is BF16) and da is not db:
                args = _cast_to_common(args, [da, db])
            elif da is not db and da is not None and db is not None and lattice:
                if (isinstance(da, np.dtype) and isinstance(db, np.dtype)  # (a Tensor's dtype is torch's)
                        and unsigned_meets_signed_64((da, db))):  # JAX's weak float f*, eager too
                    out = plain_bind(*args, **params)
                    return wrap(out._buf, True) if type(out) is ArrayImpl else out
                args = lattice_pair(a, b)
            return plain_bind(*args, **params)
        if len(args) == 1:
            # (a cast asked to be weak: weak whatever its operand, batched values included)
            if _weakness(args[0]) or (prim is convert_element_type_p and params.get("weak_type")):
                return _weak_bind(prim, plain_bind, args, params)
            return plain_bind(*args, **params)
        if any(_weakness(a) for a in args):
            return _weak_bind(prim, plain_bind, args, params)
        dts = [getattr(a, "dtype", None) for a in args]
        if any(d is BF16 for d in dts) and any(d is not BF16 for d in dts):
            args = _cast_to_common(args, dts)
        return plain_bind(*args, **params)

    return bind


# binary primitives whose operands promote to one dtype (not ldexp/shifts/complex, which
# take operands of different kinds on purpose)
_LATTICE_PRIMS = frozenset({"add", "add_any", "sub", "mul", "div", "atan2", "eq", "ne", "lt", "le", "gt",
                            "ge", "max", "min", "fmax", "fmin", "rem", "remainder", "floor_divide", "hypot",
                            "logaddexp", "logaddexp2", "nextafter", "pow"})
_INT_FLOAT_TARGET: dict = {}


def lattice_pair(a, b):
    """``a`` and ``b`` (strongly typed) cast to JAX's joint dtype where NumPy's rule gives
    another: an integer meeting a float or complex type takes that type (``int32`` with
    ``float32`` is float32, not float64), and ``uint64`` meeting a signed integer is the
    weak float ``f*`` (both become weakly typed float64); as they are otherwise.

    Example::

        >>> import fgrad.numpy as fnp
        >>> [x.dtype for x in lattice_pair(fnp.ones(2, "int64"), fnp.ones(2, "float32"))]
        [dtype('float32'), dtype('float32')]

    A weakly typed operand (a Python scalar, or a traced one under jit) is left as it is, for
    the op's weak-type rule: casting it here made it strong, so ``where(c, 1, 2.0)`` under jit
    in 32-bit mode lost the weak type that it has eagerly.
    """
    da, db = getattr(a, "dtype", None), getattr(b, "dtype", None)
    if da is None or db is None or da == db or _weakness(a) or _weakness(b):
        return a, b
    if isinstance(da, np.dtype) and isinstance(db, np.dtype) and unsigned_meets_signed_64((da, db)):
        f64 = np.dtype(np.float64)  # JAX's weak float f*: no integer type holds both
        return convert_element_type(a, f64, weak_type=True), convert_element_type(b, f64, weak_type=True)
    target = _int_float_target(da, db)
    if target is None:
        return a, b
    return (a if da == target else convert_element_type(a, target),
            b if db == target else convert_element_type(b, target))


def promote_joined(arrays) -> list:
    """``arrays`` cast to their joint dtype *and* weak type (JAX's ``promote_dtypes``, as
    ``concatenate``/``stack``/``select``/``intersect1d`` promote): weak where the lattice join
    is (``int32`` with a Python float, ``uint64`` with ``int64``: `core.weak_types.join_typed`),
    strong otherwise; an operand already of that type is returned as it is.

    Example::

        >>> import fgrad.numpy as fnp
        >>> [(x.dtype.name, x.weak_type) for x in promote_joined([fnp.ones(2, "int32"), fnp.asarray(1.5)])]
        [('float64', True), ('float64', True)]
    """
    avals = [get_aval(a) for a in arrays]
    dt, weak = join_typed([(a.dtype, a.weak_type) for a in avals])
    return [x if (a.dtype, a.weak_type) == (dt, weak) else convert_element_type(x, dt, weak_type=weak)
            for x, a in zip(arrays, avals, strict=True)]


def _int_float_target(da, db):
    """The dtype JAX promotes strongly typed ``da`` and ``db`` to where NumPy's rule gives
    another one: an integer meeting a float/complex type takes that type (NumPy widens
    int64 + float32 to float64, int16 + float16 to float32); None where NumPy agrees."""
    key = (da, db)
    try:
        return _INT_FLOAT_TARGET[key]
    except KeyError:
        pass
    try:
        # bfloat16 counts as a float ("V" to NumPy); np.dtype refuses a foreign dtype object (a
        # fgrad.torch dtype captured in a definition) with TypeError: no joint type then
        ka, kb = dtype_kind(np.dtype(da)), dtype_kind(np.dtype(db))
        target = None
        if (ka in "iu" and kb in "fc") or (kb in "iu" and ka in "fc"):
            want = np.dtype(db if kb in "fc" else da)
            try:
                numpy_joint = np.promote_types(da, db)
            except TypeError:  # NumPy has no joint type for bfloat16 and an integer
                numpy_joint = None
            if numpy_joint != want:
                target = want
    except TypeError:
        target = None
    _INT_FLOAT_TARGET[key] = target
    return target


def promote_weak(*args) -> tuple:
    """``args`` with each weakly typed array cast to the dtype JAX's promotion gives it
    against the strongly typed ones (`core.weak_types.cast_target`); for operations that
    combine dtypes outside the elementwise family (``dot_general``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> [a.dtype.name for a in promote_weak(fnp.asarray(2.0), fnp.ones(2, "float32"))]
        ['float32', 'float32']
    """
    kinds = [_weakness(a) for a in args]
    if 2 not in kinds:
        return args
    return _cast_weak(args, kinds, [get_aval(a).dtype for a, k in zip(args, kinds) if not k])


def promote_args_inexact(*args) -> tuple:
    """``args`` ready for a float-only function (JAX's ``promote_args_inexact``): when every
    operand is a bool or an integer, each is cast to the inexact dtype of their join
    (`core.inexact.inexact_join`: ``int8 -> float32``, ``int64 -> float64``), weakly typed
    when the join is (a Python int becomes a Python float); otherwise they are returned as
    they are (the elementwise promotion gives JAX's dtype).  Non-numeric operands are
    returned as they are, for the function to reject.

    Example::

        >>> import fgrad.numpy as fnp
        >>> promote_args_inexact(fnp.ones(2, "int8"), 2)
        (Array([1., 1.], dtype=float32), 2.0)
    """
    for a in args:  # the common case: an inexact concrete array or Python number -> as they are
        t = type(a)
        if (t is ArrayImpl and a._buf.dtype.kind in "fcV") or t is float or t is complex:
            return args
    strong, weak = [], []
    for a in args:
        try:
            av = get_aval(a)
        except TypeError:
            return args
        (weak if av.weak_type else strong).append(av.dtype)
    target, is_weak = inexact_join(strong, weak)
    if target is None:
        return args
    # a Python int becomes a Python float (still weak, and no constant array in traced code)
    return tuple(float(a) if type(a) is int else convert_element_type(a, target, weak_type=is_weak)
                 for a in args)


def operands_join_is_weak(*args) -> bool:
    """Whether JAX's ``promote_args_inexact`` (or any elementwise promotion) of ``args``
    is weakly typed: the lattice join of the operands as given is a weak type
    (`core.weak_types.join_is_weak`; a bool array beside a Python number is weak).

    Example::

        >>> import fgrad.numpy as fnp
        >>> operands_join_is_weak(fnp.ones(2, "int32"), 0.5), operands_join_is_weak(fnp.ones(2), 2)
        (True, False)
    """
    strong, weak = [], []
    for a in args:
        av = get_aval(a)
        (weak if av.weak_type else strong).append(av.dtype)
    return join_is_weak(strong, weak)


def with_weak_type(x, weak: bool):
    """``x`` with its dtype, weakly typed or not (JAX's weak type of a composite function's
    result, where fgrad's steps give another)."""
    if get_aval(x).weak_type == weak:
        return x
    return convert_element_type(x, get_aval(x).dtype, weak_type=weak)


def promote_args_numeric(*args) -> tuple:
    """``args`` ready for a numeric-only function (JAX's ``promote_args_numeric``): when every
    operand is a bool, each is cast to int32 (`core.inexact.to_numeric_dtype`); otherwise they
    are returned as they are.

    Example::

        >>> import fgrad.numpy as fnp
        >>> [a.dtype.name for a in promote_args_numeric(fnp.ones(2, "bool"), True)]
        ['int32', 'int32']
    """
    for a in args:
        if type(a) is bool:
            continue
        try:
            if get_aval(a).dtype.kind != "b":
                return args
        except TypeError:
            return args
    return tuple(convert_element_type(a, to_numeric_dtype(np.bool_)) for a in args)


def _cast_weak(args, kinds, strong):
    """Each weakly typed array of ``args`` cast to the dtype the ``strong`` dtypes give it.
    A staged one of that dtype already is made strong all the same, as JAX's promotion
    stages it (``convert_element_type[new_dtype=float64 weak_type=False]``; jit drops it);
    eager values and other transforms' tracers need no operation for it."""
    if not strong:
        return args
    cast = []
    for a, k in zip(args, kinds):
        if k == 2:
            dt = get_aval(a).dtype
            target = cast_target(strong, dt)
            if target is not None:
                a = convert_element_type(a, target)
            elif isinstance(a, Tracer) and a.staged and all(d == dt for d in strong):
                a = convert_element_type(a, dt)
        cast.append(a)
    return tuple(cast)


_PY_LEVEL = {int: 1, float: 2, complex: 3}  # Python's weak scalar types (not bool)
_DTYPE_LEVEL: dict = {}


def _wrap_int_scalars(args, strong):
    """``args`` with each Python int outside the range of the strongly typed integer operand's
    dtype wrapped into it (two's complement), as JAX converts it: ``int8(1) + 300`` is 45
    (NumPy raises OverflowError); a strongly typed float or complex operand keeps the int."""
    bounds = _INT_BOUNDS.get(strong[0])
    if bounds is None:
        dt = np.dtype(strong[0])
        if dt.kind not in "iu":
            return args
        info = np.iinfo(dt)
        bounds = _INT_BOUNDS[strong[0]] = (int(info.min), int(info.max), 1 << (8 * dt.itemsize))
    lo, hi, span = bounds
    # an int beyond the default int type (int64, int32 with 64-bit types off) stays: OverflowError
    top = _DEFAULT_INT_TOP[x64_mode.enabled]
    return tuple((a - lo) % span + lo if type(a) is int and not lo <= a <= hi and -top - 1 <= a <= top else a
                 for a in args)


_DEFAULT_INT_TOP = {True: 2 ** 63 - 1, False: 2 ** 31 - 1}


_INT_BOUNDS: dict = {}  # integer dtype -> (min, max, 2 ** bits)


def _scalar_bind(prim, plain_bind, args, scalar, array, params):
    """`_promoting_bind` of a strongly typed concrete array and a Python int/float/complex:
    NumPy's promotion gives JAX's dtype; the result is weak when the scalar's kind is above the
    array's (``int32_array * 1.5``), except a complex scalar with a float array."""
    dt = array._buf.dtype
    if dt is BF16:
        return _weak_bind(prim, plain_bind, args, params)
    if type(scalar) is int and dt.kind in "iu":
        args = _wrap_int_scalars(args, (dt,))
    array_second = args[1] is array
    if dt.kind in "biu" and type(scalar) is not int and prim.name in _LATTICE_PRIMS:
        args = _int_operands_as_weak(args, (0,) if array_second else (1,))
    out = plain_bind(*args, **params)
    lv = _DTYPE_LEVEL.get(dt)
    if lv is None:
        lv = _DTYPE_LEVEL[dt] = weak_level(dt)
    sv = _PY_LEVEL[type(scalar)]
    if sv > lv and not (sv == 3 and lv == 2) and type(out) is ArrayImpl \
            and prim is not convert_element_type_p \
            and not _strong_beside_strong(prim.name, array_second and dt.kind in "iu"):
        out = wrap(out._buf, True)
    return out


def _int_operands_as_weak(args, weak_at) -> tuple:
    """``args`` (two operands of a lattice primitive) with a bool/integer array converted to
    the dtype of the weakly typed float/complex operand (a Python scalar or a weak array, at
    an index in ``weak_at``) where NumPy would compute in another dtype, as JAX stages it
    (``convert_element_type[new_dtype=float32 weak_type=True]``): in 32-bit mode
    ``int32_array * 0.002`` (or a ``fori_loop`` index times a step) is then a float32
    product of float32 operands, JAX's bits, not a float64 product rounded once (1 ulp from
    JAX in half of ``arange(200) * 0.002``; the host loops kept it in float64, stacking a
    scan's ys as float64).  Where NumPy's dtype is the weak operand's (64-bit mode) nothing
    changes."""
    w = next((args[k] for k in weak_at if dtype_kind(get_aval(args[k]).dtype) in "fc"), None)
    if w is None:
        return args
    target = get_aval(w).dtype
    out = list(args)
    for k, a in enumerate(args):
        if a is w or type(a) in _PY_LEVEL or type(a) is bool:
            continue
        dt = get_aval(a).dtype
        if dtype_kind(dt) not in "biu":
            continue
        numpy_dt = np.result_type(dt, w) if type(w) in _PY_LEVEL else promote_types(dt, target)
        if numpy_dt != target:
            out[k] = convert_element_type(a, target, weak_type=True)
    return tuple(out)


def _weak_bind(prim, plain_bind, args, params):
    """`_promoting_bind` with a weakly typed operand."""
    kinds = [_weakness(a) for a in args]
    strong = [get_aval(a).dtype for a, k in zip(args, kinds) if not k]
    weak = [get_aval(a).dtype for a, k in zip(args, kinds) if k]
    if 1 in kinds and len(strong) == 1:
        args = _wrap_int_scalars(args, strong)
    if len(args) == 2 and prim.name in _LATTICE_PRIMS:
        args = _int_operands_as_weak(args, tuple(k for k, kind in enumerate(kinds) if kind))
    if 2 in kinds and prim is not convert_element_type_p:
        args = _cast_weak(args, kinds, strong)
    dts = [getattr(a, "dtype", None) for a in args]
    if any(d is BF16 for d in dts) and any(d is not BF16 for d in dts):
        args = _cast_to_common(args, dts)
    out = plain_bind(*args, **params)
    if type(out) is ArrayImpl and not out._weak:
        if prim is convert_element_type_p:
            is_weak = bool(params.get("weak_type", False))
        else:
            int_exponent = len(args) == 2 and not kinds[1] and dtype_kind(get_aval(args[1]).dtype) in "iu"
            is_weak = _join_is_weak(prim, strong, weak, int_exponent)
        if is_weak:
            out = wrap(out._buf, True)
    return out


def _cast_to_common(args, dts):
    weak = [d is None or get_aval(a).weak_type for a, d in zip(args, dts, strict=True)]
    target = None
    for d, w in zip(dts, weak, strict=True):
        if not w:
            target = d if target is None else promote_types(target, d)
    if target is None:
        return args
    out = []
    for a, d, w in zip(args, dts, weak, strict=True):
        if w:  # a Python scalar takes bfloat16 (NumPy would make bfloat16 + 1.5 a float32)
            if target is BF16 and dtype_kind(get_aval(a).dtype) in "biuf":
                a = convert_element_type(a, BF16)
        elif d != target:
            a = convert_element_type(a, target)
        out.append(a)
    return tuple(out)


def elementwise(name: str, impl, kernel=None) -> Primitive:
    prim = Primitive(name, impl, None, family="elementwise")
    prim.bind = _promoting_bind(prim)
    prim.abstract_eval = _ew_abstract_eval(prim)
    defbroadcasting(prim)
    prim.kernel = kernel
    return prim


def unary(name: str, np_fn, deriv=None, kernel=None, tangent=None, jax_tangent=None) -> Primitive:
    """A unary op; ``deriv(x, y)`` gives dy/dx from input and output (None: not
    differentiable, tangent is zero), or ``tangent(t, y, x)`` the output tangent itself
    (a rule that divides, as JAX's ``log``: ``t / x`` keeps ``x``, not ``1 / x``);
    ``jax_tangent(t, y, x)``: JAX's own formula where it rounds differently, used when the op
    is bound for JAX's face (``xla=True``)."""
    zeros = XLA_ZERO_SIGNS.get(name)

    xla_fn = XLA_MATH.get(name)

    def impl(xp, x, *, xla_zeros=False, xla=False):  # ufuncs dispatch to cupy too
        if xla and xla_fn is not None:  # JAX's face: XLA's CPU algorithm (`fgrad.ops.xla_math`)
            y = xla_fn(xp, x)
            if y is not None:
                return y
        y = np_fn(x)
        return _with_xla_zero_signs(xp, zeros, x, y) if xla_zeros and zeros is not None else y

    prim = elementwise(name, impl, kernel)
    prim.ufunc = np_fn
    if jax_tangent is not None:
        defjvp2(prim, lambda t, y, x, **params: (jax_tangent if params.get("xla") else tangent)(t, y, x))
    elif tangent is not None:
        defjvp2(prim, lambda t, y, x, **params: tangent(t, y, x))
    elif deriv is None:
        defzero(prim)
    else:
        defjvp2(prim, lambda t, y, x, **params: mul(t, deriv(x, y)))
    return prim


# The signs XLA's complex formulas (JAX's face) give the zero parts of complex results where
# NumPy's (C99's, PyTorch's) give the other sign: for each unary op, ``(result part, operand
# part, sign)`` -- where that part of the operand is zero and that part of the result is zero,
# the result's is ``+0.`` (sign 1) or ``-0.`` (sign -1).  ``cos(x)``'s imaginary part is
# ``-sin(re x) sinh(im x)``: C99 gives ``-0.`` for ``cos(3j)``, JAX's lowering selects ``+0.``
# where ``re x == 0``.  Applied when the primitive is bound with ``xla_zeros=True`` (what
# `fgrad.numpy` and `fgrad.lax` do for complex operands; the PyTorch face does not).
XLA_ZERO_SIGNS: dict[str, tuple[tuple[str, str, int], ...]] = {
    "sin": (("real", "real", 1),), "tan": (("real", "real", 1),), "cos": (("imag", "real", 1),),
    "exp": (("imag", "imag", 1),), "exp2": (("imag", "imag", 1),),
    "expm1": (("imag", "imag", 1), ("real", "real", 1)),
    "sinh": (("real", "real", 1), ("imag", "imag", 1)), "cosh": (("imag", "real", 1), ("imag", "imag", 1)),
    "tanh": (("imag", "imag", 1),), "sqrt": (("imag", "imag", 1),),
    "asin": (("imag", "imag", 1),), "acos": (("imag", "imag", -1),), "acosh": (("imag", "imag", 1),),
    "asinh": (("real", "real", 1),), "atan": (("imag", "imag", -1),), "atanh": (("real", "real", 1),),
    "sign": (),  # JAX's sign(0j) is the operand itself, its zeros' signs kept
}


def jax_face_bind(prim: Primitive, bind=None):
    """``bind`` (default ``prim.bind``) as JAX's face binds ``prim``: a complex operand gets
    XLA's zero signs (``xla_zeros=True``, `XLA_ZERO_SIGNS`); a real floating operand of an op
    with an XLA algorithm (`fgrad.ops.xla_math.XLA_MATH`) is bound with ``xla=True``; ``bind``
    itself where ``prim`` has neither.

    Example::

        >>> import numpy as np
        >>> jax_face_bind(cos_p)(np.complex64(3j))
        Array(10.067662+0.j, dtype=complex64)
    """
    bind = prim.bind if bind is None else bind
    xla = prim.name in XLA_MATH
    if prim.name not in XLA_ZERO_SIGNS and not xla:
        return bind
    prim_bind = prim.bind
    zero_signs = prim.name in XLA_ZERO_SIGNS

    def face_bind(x):
        dt = getattr(x, "dtype", None)
        if zero_signs and (type(x) is complex or (dt is not None and getattr(dt, "kind", None) == "c")):
            return prim_bind(x, xla_zeros=True)  # (complex operands need no promotion)
        if xla and flag("xla_math") and (type(x) is float or (dt is not None and dt.kind == "f")) \
                and not called_from_torch_face():
            return prim_bind(x, xla=True)  # (floating operands need no promotion)
        return bind(x)

    return face_bind


def _with_xla_zero_signs(xp, rules, x, y):
    """``y`` (a unary op's result on ``x``) with the zero signs of `XLA_ZERO_SIGNS` ``rules``."""
    if getattr(y, "dtype", None) is None or y.dtype.kind != "c":
        return y
    y = xp.array(y, copy=True)
    if not rules:  # sign
        zero = x == 0
        y[zero] = xp.asarray(x, y.dtype)[zero] if xp.ndim(x) else x
        return y
    for out_part, in_part, sign in rules:
        part = getattr(y, out_part)  # a view: assignments write into y
        fix = (getattr(xp.asarray(x), in_part) == 0) & (part == 0)
        part[fix] = 0.0 if sign > 0 else -0.0
    return y


def nondiff(name: str, impl, kernel=None) -> Primitive:
    prim = elementwise(name, impl, kernel)
    defzero(prim)
    return prim


# ---------------------------------------------------------------------------------------
# small helpers used by rules (fgrad-level, so higher derivatives work)


def unbroadcast(ct, aval: ShapedArray):
    """Sum ``ct`` down to ``aval``'s shape (the transpose of NumPy broadcasting)."""
    cs = shape(ct)
    target = aval.shape
    if cs == target:
        return _cast_like(ct, aval)
    lead = len(cs) - len(target)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, s in enumerate(target) if s == 1 and cs[i + lead] != 1
    )
    out = reduce_sum(ct, axes) if axes else ct
    if shape(out) != target:
        out = reshape(out, target)
    return _cast_like(out, aval)


def _zeros_of(x):
    """True zeros with ``x``'s shape and dtype (``x * 0`` would be NaN at inf/NaN)."""
    return zeros_like(x)


def _cast_like(x, aval: ShapedArray):
    """A cotangent ``x`` in ``aval``'s dtype (a weak ``aval``: in its kind only); a complex
    cotangent of a real operand is its real part (``1j * x`` with real ``x``)."""
    dx = dtype(x)
    if dx == aval.dtype:
        return x
    if dtype_kind(dx) == "c" and dtype_kind(aval.dtype) != "c":
        x = real(x)
    if aval.weak_type:
        return x
    return convert_element_type(x, aval.dtype)


# ---------------------------------------------------------------------------------------
# arithmetic

add_p = elementwise("add", lambda xp, x, y: xp.add(x, y), kernel="({0} + {1})")
sub_p = elementwise("sub", lambda xp, x, y: xp.subtract(x, y), kernel="({0} - {1})")
mul_p = elementwise("mul", lambda xp, x, y: xp.multiply(x, y), kernel="({0} * {1})")
# the quotients `div`'s ``by_reciprocal`` computes as x * (1 / y) (others divide)
BY_RECIPROCAL_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _div_impl(xp, x, y, by_reciprocal=False):
    """``x / y``; with ``by_reciprocal`` (what XLA computes for JAX's division by a constant:
    ``jnp.round(x, decimals)``'s factor) a float32/float64 quotient is ``x * (1 / y)``, the
    reciprocal rounded to the result's dtype first."""
    if by_reciprocal:
        dt = xp.result_type(x, y)
        if dt in BY_RECIPROCAL_DTYPES:
            if isinstance(y, (int, float, np.integer, np.floating)):
                # on the host, in float64: rounded once more to float32 by the product, which
                # is the correctly rounded float32 reciprocal (53 >= 2 * 24 + 2 bits)
                y = float(np.asarray(y, dt))
                r = math.copysign(math.inf, y) if y == 0.0 else 1.0 / y
            else:  # on the divisor's device
                r = xp.true_divide(1, y if y.dtype == dt else y.astype(dt))
            return xp.multiply(x, r, dtype=dt)
    return xp.true_divide(x, y)


div_p = elementwise("div", _div_impl, kernel="({0} / {1})")
neg_p = elementwise("neg", lambda xp, x: xp.negative(x), kernel={"iuf": "(-{0})"})


def add(x, y):
    return add_p.bind(x, y)


def sub(x, y):
    return sub_p.bind(x, y)


def mul(x, y):
    return mul_p.bind(x, y)


def div(x, y):
    return div_p.bind(x, y)


def neg(x):
    return neg_p.bind(x)


# JAX's ``add_any`` (``add_jaxvals``): the sum of two tangent/cotangent contributions
# (`core.rules.add_tangents`); numerically ``add``, a primitive of its own so that derivative
# programs read as JAX's
add_any_p = elementwise("add_any", lambda xp, x, y: xp.add(x, y), kernel="({0} + {1})")


def add_any(x, y):
    return add_any_p.bind(x, y)


def _add_transpose(ct, x, y):
    return (unbroadcast(ct, x.aval) if is_undefined(x) else None,
            unbroadcast(ct, y.aval) if is_undefined(y) else None)


def _sub_transpose(ct, x, y):
    return (unbroadcast(ct, x.aval) if is_undefined(x) else None,
            unbroadcast(neg(ct), y.aval) if is_undefined(y) else None)


def _div_transpose(ct, x, y, **params):
    if is_undefined(y):
        raise ValueError("div is not linear in its denominator")
    return unbroadcast(div_p.bind(ct, y, **params), x.aval), None


def _ident(t, *primals):
    return t


deflinear(add_p, _add_transpose, partials=(_ident, _ident))
deflinear(add_any_p, _add_transpose, partials=(_ident, _ident))
deflinear(sub_p, _sub_transpose, partials=(_ident, lambda t, x, y: neg(t)))
defbilinear(mul_p, lambda ct, x, y: unbroadcast(mul(ct, y), x.aval),
            lambda ct, x, y: unbroadcast(mul(x, ct), y.aval))
defjvp2(div_p, lambda t, out, x, y, **params: div_p.bind(t, y, **params),
        lambda t, out, x, y, **params: neg(mul(t, div(out, y))))
deflinear_in(div_p, _div_transpose)
deflinear(neg_p, lambda ct, x: (neg(ct),))


# ---------------------------------------------------------------------------------------
# unary math


def _sqrt_deriv(x, y):
    return div(0.5, y)


exp_p = unary("exp", np.exp, lambda x, y: y, kernel={"f": "exp{f}({0})"})
exp2_p = unary("exp2", np.exp2, lambda x, y: mul(y, math.log(2.0)), kernel={"f": "exp2{f}({0})"})
log_p = unary("log", np.log, kernel={"f": "log{f}({0})"}, tangent=lambda t, y, x: div(t, x))  # JAX's g / x
log2_p = unary("log2", np.log2, lambda x, y: div(1.0 / math.log(2.0), x), kernel={"f": "log2{f}({0})"})
log10_p = unary("log10", np.log10, lambda x, y: div(1.0 / math.log(10.0), x), kernel={"f": "log10{f}({0})"})
log1p_p = unary("log1p", np.log1p, lambda x, y: div(1.0, add(x, 1.0)), kernel={"f": "log1p{f}({0})"})
expm1_p = unary("expm1", np.expm1, lambda x, y: add(y, 1.0), kernel={"f": "expm1{f}({0})"})
sqrt_p = unary("sqrt", np.sqrt, _sqrt_deriv, kernel={"f": "sqrt{f}({0})"})
cbrt_p = unary("cbrt", np.cbrt, lambda x, y: div(1.0, mul(3.0, mul(y, y))), kernel={"f": "cbrt{f}({0})"})
sin_p = unary("sin", np.sin, lambda x, y: cos(x), kernel={"f": "sin{f}({0})"})
cos_p = unary("cos", np.cos, kernel={"f": "cos{f}({0})"},  # JAX's -(t * sin(x))
              tangent=lambda t, y, x: neg(mul(t, sin(x))))
tan_p = unary("tan", np.tan, lambda x, y: add(1.0, mul(y, y)), kernel={"f": "tan{f}({0})"})
asin_p = unary("asin", np.arcsin, lambda x, y: rsqrt_(sub(1.0, mul(x, x))), kernel={"f": "asin{f}({0})"})
acos_p = unary("acos", np.arccos, lambda x, y: neg(rsqrt_(sub(1.0, mul(x, x)))), kernel={"f": "acos{f}({0})"})
atan_p = unary("atan", np.arctan, lambda x, y: div(1.0, add(1.0, mul(x, x))), kernel={"f": "atan{f}({0})"})
sinh_p = unary("sinh", np.sinh, lambda x, y: cosh(x), kernel={"f": "sinh{f}({0})"})
cosh_p = unary("cosh", np.cosh, lambda x, y: sinh(x), kernel={"f": "cosh{f}({0})"})
tanh_p = unary("tanh", np.tanh, kernel={"f": "tanh{f}({0})"},
               tangent=lambda t, y, x: mul(t, sub(1.0, mul(y, y))),  # PyTorch's tanh_backward
               jax_tangent=lambda t, y, x: mul(add(t, mul(t, y)), sub(1.0, y)))  # JAX's (t + t y)(1 - y)
asinh_p = unary("asinh", np.arcsinh, lambda x, y: rsqrt_(add(mul(x, x), 1.0)), kernel={"f": "asinh{f}({0})"})
acosh_p = unary("acosh", np.arccosh, lambda x, y: _acosh_derivative(x), kernel={"f": "acosh{f}({0})"})
atanh_p = unary("atanh", np.arctanh, lambda x, y: div(1.0, sub(1.0, mul(x, x))),
                kernel={"f": "atanh{f}({0})"})
abs_p = unary("abs", np.abs, None,
              kernel={"f": "fabs{f}({0})", "i": "({0} < 0 ? -{0} : {0})", "ub": "{0}"})


def _sign(x):
    """NumPy's ``sign``; a bool stays itself (PyTorch's ``sign`` of a bool tensor; NumPy has no
    bool loop, and JAX's faces refuse bool before binding)."""
    if getattr(x, "dtype", None) == np.bool_ or type(x) is bool:
        return x
    return np.sign(x)


# NumPy: sign(nan) is nan and sign(-0.0) is +0.0
sign_p = unary("sign", _sign, None,
               kernel={"f": "({0} > 0 ? ({T})1 : ({0} < 0 ? ({T})-1 : ({0} == 0 ? ({T})0 : {0})))",
                       "i": "(({0} > 0) - ({0} < 0))", "u": "({0} > 0)"})
floor_p = unary("floor", np.floor, None, kernel={"f": "floor{f}({0})", "iub": "{0}"})
ceil_p = unary("ceil", np.ceil, None, kernel={"f": "ceil{f}({0})", "iub": "{0}"})
trunc_p = unary("trunc", np.trunc, None, kernel={"f": "trunc{f}({0})", "iub": "{0}"})
isnan_p = unary("isnan", np.isnan, None, kernel={"f": "isnan({0})", "iub": "false"})
isinf_p = unary("isinf", np.isinf, None, kernel={"f": "isinf({0})", "iub": "false"})
isfinite_p = unary("isfinite", np.isfinite, None, kernel={"f": "isfinite({0})", "iub": "true"})


def _truth(xp, x):
    """A logical op's operand as NumPy reads it: a complex number is true where it is nonzero
    (cupy's logical ufuncs have no complex loops; JAX's ``logical_*`` compare with zero too)."""
    dt = getattr(x, "dtype", None)
    return xp.not_equal(x, 0) if dt is not None and dt.kind == "c" else x


logical_not_p = nondiff("logical_not", lambda xp, x: xp.logical_not(_truth(xp, x)), kernel="(!{0})")
signbit_p = unary("signbit", np.signbit, None, kernel={"f": "signbit({0})"})
invert_p = unary("invert", np.invert, None, kernel={"iu": "(~{0})", "b": "(!{0})"})
def _conj_impl(xp, x):
    """``conjugate``, with bool staying bool (JAX, PyTorch; NumPy's conjugate of bool is int8)."""
    if type(x) is bool or (getattr(x, "dtype", None) is not None and x.dtype.kind == "b"):
        return xp.asarray(x).copy()
    return xp.conjugate(x)


conj_p = elementwise("conj", _conj_impl, kernel={"biuf": "{0}"})
real_p = elementwise("real", lambda xp, x: xp.asarray(xp.real(x)))  # np.real(3) is the int 3
imag_p = elementwise("imag", lambda xp, x: xp.asarray(xp.imag(x)))


def _complex_impl(xp, x, y):
    """``x + i y`` from real parts, exact for every value (``x + 1j * y`` is not: ``1j * inf``
    has a NaN real part)."""
    x, y = xp.broadcast_arrays(xp.asarray(x), xp.asarray(y))
    single = np.result_type(x.dtype, y.dtype).itemsize <= 4
    out = xp.empty(x.shape, np.complex64 if single else np.complex128)
    out.real, out.imag = x, y
    return out


complex_p = elementwise("complex", _complex_impl)


def _stable_logistic(xp, x, *, xla=False):
    if xla:  # JAX's face: XLA's expansion (`fgrad.ops.xla_math.logistic`)
        y = XLA_MATH["logistic"](xp, x)
        if y is not None:
            return y
    return xp.exp(-xp.logaddexp(0, -x)) if dtype_kind(xp.asarray(x).dtype) == "f" else 1 / (1 + xp.exp(-x))


logistic_p = unary("logistic", np.exp, lambda x, y: mul(y, sub(1.0, y)),
                   kernel={"f": "(({T})1 / (({T})1 + exp{f}(-{0})))"})
logistic_p.impl = _stable_logistic
logistic_p.ufunc = None  # not a single ufunc: compiled code must call the impl
round_p = elementwise("round", lambda xp, x, decimals=0: xp.round(x, decimals),
                      kernel={"f": "fg_round({0}, {decimals})", "iu": "{0}"})
defzero(round_p)


def _abs_tangent(t, y, x):
    """JAX's ``_abs_jvp_rule`` (jax/_src/lax/lax.py): real input ``select(x >= 0, t, -t)``, so
    abs'(0) = 1 (and abs'(-0.0) = 1); complex input ``real(t * conj(x) / |x|)`` with ``|x| = 0``
    replaced by 1, so the tangent is real and zero at ``x = 0``."""
    if dtype(x).kind == "c":
        safe = convert_element_type(select(eq(y, 0.0), 1.0, y), dtype(x))
        return real(mul(t, div(conj(x), safe)))
    return select(ge(x, 0), t, neg(t))


def complex_(x: ArrayLike, y: ArrayLike) -> Complex[Array, "..."]:
    """``x + i y`` for real floating ``x`` and ``y`` (``lax.complex``): exact for every value,
    complex64 from 32-bit (and narrower) parts, complex128 from float64.

    Example::

        >>> from fgrad import lax
        >>> lax.complex(1.0, 2.0)
        Array(1.+2.j, dtype=complex128, weak_type=True)
    """
    for name, v in (("x", x), ("y", y)):
        if dtype_kind(dtype(v)) != "f":
            raise TypeError(f"lax.complex: the real and imaginary parts must be floating point, got {name} "
                            f"of dtype {dtype(v)}")
    return complex_p.bind(x, y)


def _complex_transpose(ct, x, y):
    # x + i y is linear over the reals: the cotangent of x is Re(ct), of y -Im(ct) (JAX's pairing)
    return (unbroadcast(real(ct), x.aval) if is_undefined(x) else None,
            unbroadcast(neg(imag(ct)), y.aval) if is_undefined(y) else None)


def _real_transpose(ct, x):
    """JAX: the transpose of ``real`` is ``complex(ct, 0)``: the cotangent of a complex input
    is complex (so a jvp of a vjp stays complex too)."""
    return (convert_element_type(ct, x.aval.dtype) if dtype_kind(x.aval.dtype) == "c" else ct,)


def _acosh_derivative(x):
    """``1 / sqrt(x^2 - 1)`` for real ``x`` (PyTorch's and JAX's, finite below -1 where acosh is
    NaN); for complex ``x`` the principal branch's ``1 / (sqrt(x - 1) sqrt(x + 1))``: the
    single square root has the wrong sign where ``Re x < 0``."""
    if dtype(x).kind == "c":
        return mul(rsqrt_(sub(x, 1.0)), rsqrt_(add(x, 1.0)))
    return rsqrt_(sub(mul(x, x), 1.0))


def rsqrt_(x):
    """``1 / sqrt(x)``, the ``rsqrt`` primitive (JAX's derivative rules use it too)."""
    return rsqrt_p.bind(x)


def _mk(p):
    def f(x):
        return p.bind(x)

    f.__name__ = p.name
    return f


exp, exp2, log, log2, log10 = map(_mk, (exp_p, exp2_p, log_p, log2_p, log10_p))
log1p, expm1, sqrt, cbrt = map(_mk, (log1p_p, expm1_p, sqrt_p, cbrt_p))
sin, cos, tan, asin, acos, atan = map(_mk, (sin_p, cos_p, tan_p, asin_p, acos_p, atan_p))
sinh, cosh, tanh, asinh, acosh, atanh = map(_mk, (sinh_p, cosh_p, tanh_p, asinh_p, acosh_p, atanh_p))
abs_, sign, floor, ceil, trunc = map(_mk, (abs_p, sign_p, floor_p, ceil_p, trunc_p))
isnan, isinf, isfinite = map(_mk, (isnan_p, isinf_p, isfinite_p))
logical_not, invert = map(_mk, (logical_not_p, invert_p))
conj, real, imag, logistic = map(_mk, (conj_p, real_p, imag_p, logistic_p))


# ---------------------------------------------------------------------------------------
# binary math


def _binary(name, np_fn, kernel=None):
    prim = elementwise(name, lambda xp, x, y: np_fn(x, y), kernel)
    prim.ufunc = np_fn
    return prim


# `kernel`: CUDA templates by dtype kind (see fgrad/compile/cuda_codegen.py; fg_* are its helpers)
_CUBE_BY_PRODUCT = (np.dtype(np.float32), np.dtype(np.float64))


def _pow_impl(xp, x, y):
    """``x ** y``; a real float base cubed is ``(x * x) * x``, as JAX's ``integer_pow`` and
    PyTorch's ``pow(x, 3)`` compute it (NumPy's ``power`` calls ``pow``, an ulp off at times
    and 2.5x slower); jit's simplifier rewrites a literal exponent 3 the same way."""
    if type(y) is int and y == 3 and getattr(x, "dtype", None) in _CUBE_BY_PRODUCT:
        return (x * x) * x
    yd = getattr(y, "dtype", None)
    if yd is not None and yd.kind == "i" and getattr(x, "dtype", yd).kind in "iu" and (y < 0).any():
        return _int_pow_negative_exponents(xp, x, y)
    return np.power(x, y)


def _int_pow_negative_exponents(xp, x, y):
    """Integer ``x ** y`` where some ``y < 0``, as PyTorch computes it (NumPy raises): the
    truncated value of ``1 / x**-y`` -- 1 for x == 1, +-1 for x == -1, 0 otherwise (0 ** -n
    included).  XLA gives ``x ** (y mod 2**bits)`` there instead; docs/numerics.md."""
    r = xp.asarray(xp.power(x, xp.maximum(y, 0)))
    one, zero = xp.ones((), r.dtype), xp.zeros((), r.dtype)
    at_minus_one = xp.where(y % 2 == 1, -one, one) if r.dtype.kind == "i" else zero
    neg_val = xp.where(x == 1, one, xp.where(x == -1, at_minus_one, zero))
    return xp.where(y < 0, neg_val, r).astype(r.dtype, copy=False)


pow_p = elementwise("pow", _pow_impl, {"f": "pow{f}({0}, {1})", "i": "fg_ipow_i({0}, {1})",
                                       "u": "fg_ipow({0}, {1})"})
pow_p.ufunc = None  # not one ufunc for every exponent: compiled code calls the impl


def integer_pow_by_squaring(x, y: int, mul_fn, one_over):
    """``x ** y`` for a static int ``y`` as XLA computes JAX's ``integer_pow``: binary
    exponentiation (``acc *= x`` for each set bit of ``|y|``, ``x *= x`` between bits; so
    ``x**3`` is ``x * (x * x)``, ``x**5`` is ``x * ((x * x) * (x * x))``), then ``one_over(acc)``
    for a negative ``y``.  Shared by the implementation and jit's simplifier (which spells the
    same products as ``mul`` equations, so they fuse); ``y == 0`` is the caller's."""
    n = -y if y < 0 else y
    acc = None
    while n > 0:
        if n & 1:
            acc = x if acc is None else mul_fn(acc, x)
        n >>= 1
        if n > 0:
            x = mul_fn(x, x)
    return one_over(acc) if y < 0 else acc


def _integer_pow_impl(xp, x, *, y):
    if y < 0 and (type(x) is int or getattr(x, "dtype", np.dtype(float)).kind in "iu"):
        raise TypeError("integer_pow: a negative power of an integer")  # the abstract rule's error
    if y == 0:
        return xp.ones_like(x)
    return integer_pow_by_squaring(x, y, xp.multiply, lambda a: xp.true_divide(1, a))


def _integer_pow_abstract_eval(x, *, y):
    if dtype_kind(x.dtype) not in "iufc":
        raise TypeError(f"integer_pow does not accept dtype {x.dtype}. Accepted dtypes are "
                        "subtypes of integer, floating, complexfloating.")
    if y < 0 and dtype_kind(x.dtype) in "iu":
        raise TypeError("Integers cannot be raised to negative powers, got "
                        f"integer_pow({x.dtype}{list(x.shape)}, {y}); use a float base")
    return make_aval(x.shape, x.dtype, x.weak_type)


# JAX's integer_pow (a static int exponent `y`): `x ** 2`, `jnp.power(x, 3)`, `lax.integer_pow`
integer_pow_p = elementwise("integer_pow", _integer_pow_impl,
                            {"f": "fg_integer_pow({0}, {y})", "iu": "fg_ipow({0}, ({T}){y})"})
integer_pow_p.abstract_eval = _integer_pow_abstract_eval
# JAX's `square` and `rsqrt` primitives (jnp.square, lax.square, lax.rsqrt)
square_p = elementwise("square", lambda xp, x: xp.multiply(x, x), kernel="({0} * {0})")
square_p.ufunc = np.square  # x * x, bit for bit
rsqrt_p = elementwise("rsqrt", lambda xp, x: xp.true_divide(1, xp.sqrt(x)),
                      kernel={"f": "(1 / sqrt{f}({0}))"})
# NaN-propagating (max/min) or NaN-ignoring (fmax/fmin); on ties NumPy returns the second operand
max_p = _binary("max", np.maximum, kernel={"f": "(({0} > {1} || {0} != {0}) ? {0} : {1})",
                                           "iub": "({0} > {1} ? {0} : {1})"})
min_p = _binary("min", np.minimum, kernel={"f": "(({0} < {1} || {0} != {0}) ? {0} : {1})",
                                           "iub": "({0} < {1} ? {0} : {1})"})
fmax_p = _binary("fmax", np.fmax, kernel={"f": "(({0} > {1} || {1} != {1}) ? {0} : {1})",
                                          "iub": "({0} > {1} ? {0} : {1})"})
fmin_p = _binary("fmin", np.fmin, kernel={"f": "(({0} < {1} || {1} != {1}) ? {0} : {1})",
                                          "iub": "({0} < {1} ? {0} : {1})"})


def _atan2_impl(xp, x, y):
    """``arctan2(x, y)``; complex operands as XLA (and so JAX) extend it:
    ``-i * log((y + i*x) / sqrt(y**2 + x**2))``, the complex arctangent of ``x / y`` on the
    branch that real ``arctan2`` picks (NumPy's ufunc takes no complex types)."""
    if dtype_kind(xp.asarray(x).dtype) == "c" or dtype_kind(xp.asarray(y).dtype) == "c":
        # both in the result's complex dtype first (NumPy's promotion, Python scalars weak):
        # a bool or integer operand times 1j would be complex128 next to a complex64 one
        common = np.result_type(x, y)
        x, y = xp.asarray(x).astype(common), xp.asarray(y).astype(common)
        return -1j * xp.log((y + 1j * x) / xp.sqrt(y * y + x * x))
    return np.arctan2(x, y) if xp is np else xp.arctan2(x, y)


atan2_p = elementwise("atan2", _atan2_impl, {"f": "atan2{f}({0}, {1})"})
atan2_p.ufunc = None  # not NumPy's ufunc for complex operands: compiled code calls the impl
# NumPy's remainder (the sign of the divisor); JAX stages jnp.remainder as rem + select_n
rem_p = _binary("remainder", np.remainder, kernel={"f": "fg_rem({0}, {1})", "i": "fg_rem_i({0}, {1})",
                                             "u": "fg_rem_u({0}, {1})"})
# C's fmod (the sign of the dividend): JAX's lax.rem, whose primitive name it takes
fmod_p = _binary("rem", np.fmod, kernel={"f": "fmod{f}({0}, {1})", "i": "fg_fmod_i({0}, {1})",
                                          "u": "fg_rem_u({0}, {1})"})
hypot_p = _binary("hypot", np.hypot, kernel={"f": "hypot{f}({0}, {1})"})


def complex_logaddexp(xp, x, y, base2: bool = False):
    """``log(exp(x) + exp(y))`` (``log2(2**x + 2**y)`` with ``base2``) of complex operands, as
    JAX computes it (jax/_src/lax/other.py): ``m + log1p(exp(x + y - 2m))`` with ``m`` the
    lexicographic maximum, its imaginary part wrapped into ``[-pi, pi)`` (``[-pi/ln 2, pi/ln 2)``
    in base 2).  NumPy's ufuncs take no complex types."""
    m = xp.maximum(x, y)  # complex maximum: lexicographic (real part first), as lax.max
    delta = x + y - 2 * m
    out = m + (xp.log1p(xp.exp2(delta)) / math.log(2) if base2 else xp.log1p(xp.exp(delta)))
    a = math.pi / math.log(2) if base2 else math.pi
    im = xp.fmod(out.imag + a, 2 * a)
    im = xp.where(im < 0, im + 2 * a, im) - a
    return (out.real + 1j * im).astype(out.dtype)


def _logaddexp_impl(xp, x, y):
    if dtype_kind(xp.asarray(x).dtype) == "c" or dtype_kind(xp.asarray(y).dtype) == "c":
        return complex_logaddexp(xp, x, y)
    return xp.logaddexp(x, y)


logaddexp_p = elementwise("logaddexp", _logaddexp_impl, {"f": "fg_logaddexp({0}, {1})"})
logaddexp_p.ufunc = None  # complex operands: compiled code calls the impl
floor_divide_p = _binary("floor_divide", np.floor_divide,
                         kernel={"f": "fg_floordiv({0}, {1})", "i": "fg_floordiv_i({0}, {1})",
                                 "u": "fg_floordiv_u({0}, {1})"})
defzero(floor_divide_p)


def pow_(x, y):
    return pow_p.bind(x, y)


def integer_pow(x, y: int):
    """``x ** y`` for a static Python int ``y`` (JAX's ``integer_pow`` primitive)."""
    return integer_pow_p.bind(x, y=y)


def square(x):
    return square_p.bind(x)


def maximum(x, y):
    return max_p.bind(x, y)


def minimum(x, y):
    return min_p.bind(x, y)


def _pow_tangent_x(tx, out, x, y):
    if isinstance(y, (int, float)) and not isinstance(y, bool):
        if y == 0:
            return _zeros_of(mul(tx, x))
        if y == 1:
            return tx
        if y == 2:
            return mul(tx, mul(x, 2))
        return mul(tx, mul(y, pow_(x, y - 1)))
    # d/dx x**y = y x**(y-1), and exactly 0 where y == 0: finite at 0**0 like PyTorch and
    # like JAX for integer exponents (JAX's float-exponent rule gives 0 * 0**-1 = nan there;
    # the shim shares this rule, so fgrad keeps the finite value, see docs/numerics.md)
    # The masked branch reads a safe exponent 1 (x**0 = 1) where y == 0: with y itself it
    # is 0 * x**-1, whose own derivative 0 * -x**-2 is NaN at x = 0 (grad of grad of
    # x**0 at 0 was NaN, for a traced y)
    yf = y if dtype_kind(get_aval(y).dtype) in "fc" else convert_element_type(y, get_aval(out).dtype)
    zero = eq(yf, 0.0)
    ys = select(zero, 1.0, yf)
    return mul(tx, select(zero, 0.0, mul(ys, pow_(x, sub(ys, 1.0)))))


def _pow_tangent_y(ty, out, x, y):
    if isinstance(x, (int, float)) and not isinstance(x, bool):
        # a Python base stays weak: d/dy x**y = log(x) x**y
        a_log = math.log(x) if x > 0 else (0.0 if x == 0 else math.nan)
    else:
        safe_x = select(eq(x, 0.0), 1.0, x)
        a_log = select(eq(x, 0.0), 0.0, log(safe_x))
    return mul(ty, mul(a_log, out))


def _minmax_weight(cmp, cmp_or_equal):
    """The share of the tangent of x (JAX convention: ties split the tangent evenly): 1 where
    x wins, 0.5 at a tie, 0 where it loses or either is NaN.  Counted as ``cmp + cmp_or_equal``
    (0, 1 or 2) in bytes and halved once in ``out``'s dtype: the same weights as ``cmp + 0.5 *
    (x == y)`` with two passes over bytes in place of two over ``out``'s dtype (a jitted ReLU's
    mask, computed over whole activations)."""
    def wx(out, x, y):
        count = add(convert_element_type(cmp(x, y), np.uint8),
                    convert_element_type(cmp_or_equal(x, y), np.uint8))
        return mul(0.5, convert_like(count, out))

    return wx


def _def_weighted(prim, weight_x, weight_y=None):
    """Tangent ``tx * wx + ty * wy`` with ``wx = weight_x(out, x, y)`` and ``wy =
    weight_y(out, x, y)`` (default ``1 - wx``: the op picks one operand everywhere); each
    weight is computed only when its tangent is nonzero."""
    def ty_weighted(t, s):
        if weight_y is None:
            return mul(t, sub(1.0, weight_x(*s)))
        return mul(t, weight_y(*s))

    defjvp_shared(prim, lambda out, x, y: (out, x, y), lambda t, s: mul(t, weight_x(*s)), ty_weighted)


def _swapped(weight):
    """The weight of ``y`` from the rule for ``x``: ``weight(out, y, x)``."""
    return lambda out, x, y: weight(out, y, x)


def convert_like(b, ref):
    return convert_element_type(b, get_aval(ref).dtype)


def _fminmax_weight(cmp):
    # JAX's jnp.fmax/fmin (jax/_src/numpy/lax_numpy.py): where(x > y | isnan(y), x, y), so
    # the tangent follows x where it wins or y is NaN, and y otherwise -- ties go to y
    def wx(out, x, y):
        return convert_like(logical_or(cmp(x, y), isnan(y)), out)

    return wx


defjvp2(pow_p, _pow_tangent_x, _pow_tangent_y)


def _scalar_like(x, c):
    """``c`` as a weak Python scalar of ``x``'s kind (JAX's ``_const(x, c)``: a literal of
    ``x``'s dtype in a traced program)."""
    kind = dtype_kind(get_aval(x).dtype)
    return complex(c) if kind == "c" else float(c) if kind == "f" else int(c)


def _integer_pow_tangent(t, x, *, y):
    """JAX's rule: ``t * (y * x ** (y - 1))``, spelled as JAX spells it for y in 0, 1, 2."""
    if y == 0:
        return _zeros_of(t)
    if y == 1:
        return t
    if y == 2:
        return mul(t, mul(_scalar_like(x, 2), x))
    return mul(t, mul(_scalar_like(x, y), integer_pow(x, y - 1)))


defjvp(integer_pow_p, _integer_pow_tangent)
defjvp(square_p, lambda t, x: mul(t, mul(_scalar_like(x, 2), x)))
defjvp2(rsqrt_p, lambda t, out, x: mul(t, mul(_scalar_like(x, -0.5), div(out, x))))
# each operand's own weight (JAX's ``_balanced_eq``): at a NaN neither operand wins, so both get 0
_MAX_WEIGHT = _minmax_weight(lambda x, y: gt(x, y), lambda x, y: ge(x, y))
_MIN_WEIGHT = _minmax_weight(lambda x, y: lt(x, y), lambda x, y: le(x, y))
_def_weighted(max_p, _MAX_WEIGHT, _swapped(_MAX_WEIGHT))
_def_weighted(min_p, _MIN_WEIGHT, _swapped(_MIN_WEIGHT))
_def_weighted(fmax_p, _fminmax_weight(lambda x, y: gt(x, y)))
_def_weighted(fmin_p, _fminmax_weight(lambda x, y: lt(x, y)))


def _atan2_shared(out, x, y):  # atan2(x, y): angle of the point (y, x)
    return x, y, add(mul(x, x), mul(y, y))


def _rem_tangent_y(rounding):
    return lambda t, x, y: mul(t, neg(rounding(div(x, y))))


def _hypot_shared(out, x, y):
    """Matches the derivative of JAX's ``jnp.hypot`` (jax/_src/numpy/ufuncs.py: ``m * sqrt(1 +
    (n/m)^2)`` with ``m, n = max, min of |x|, |y|``, ``m`` where ``m == 0``, ``inf`` where an input
    is infinite): ``x/h, y/h`` computed scaled by ``m`` (finite when ``h`` overflows), ``0.5 *
    (x >= 0 ? 1 : -1)`` each at ``x = y = 0`` (max's tie split, abs'(0) = 1), NaN at an infinite
    input (as in JAX)."""
    m = max_p.bind(abs_(x), abs_(y))
    zero = eq(m, 0.0)
    safe_m = select(zero, 1.0, m)
    xs, ys = div(x, safe_m), div(y, safe_m)
    r = sqrt(add(mul(xs, xs), mul(ys, ys)))
    r = select(zero, 1.0, r)

    def weight(v, vs):
        half = sub(convert_like(ge(v, 0), out), 0.5)  # +-0.5 in out's dtype
        return select(zero, half, div(vs, r))

    return weight, (x, xs), (y, ys)


def _replace_posinf(x):
    """``x`` with ``+inf`` replaced by 0 (JAX's ``_replace_inf`` in jax/_src/lax/other.py)."""
    return select(eq(x, math.inf), 0.0, x)


def _logaddexp_shared(out, x, y):
    """JAX's ``_logaddexp_jvp`` (jax/_src/lax/other.py): ``exp(x - out)`` with ``+inf`` replaced by
    0 in both, so ``logaddexp(inf, inf)`` has gradient (1, 1) and ``(inf, 0)`` gives (1, 1);
    ``(-inf, -inf)`` stays NaN as in JAX."""
    return x, y, _replace_posinf(out)


defjvp_shared(atan2_p, _atan2_shared, lambda t, s: mul(t, div(s[1], s[2])),
              lambda t, s: mul(t, neg(div(s[0], s[2]))))
defjvp(rem_p, _ident, _rem_tangent_y(floor))
defjvp(fmod_p, _ident, _rem_tangent_y(trunc))
defjvp_shared(hypot_p, _hypot_shared, lambda t, s: mul(t, s[0](*s[1])), lambda t, s: mul(t, s[0](*s[2])))
defjvp_shared(logaddexp_p, _logaddexp_shared, lambda t, s: mul(t, exp(sub(_replace_posinf(s[0]), s[2]))),
              lambda t, s: mul(t, exp(sub(_replace_posinf(s[1]), s[2]))))


# ---------------------------------------------------------------------------------------
# comparisons, logic, select, casts

eq_p = nondiff("eq", lambda xp, x, y: xp.equal(x, y), kernel="({0} == {1})")
ne_p = nondiff("ne", lambda xp, x, y: xp.not_equal(x, y), kernel="({0} != {1})")
lt_p = nondiff("lt", lambda xp, x, y: xp.less(x, y), kernel="({0} < {1})")
le_p = nondiff("le", lambda xp, x, y: xp.less_equal(x, y), kernel="({0} <= {1})")
gt_p = nondiff("gt", lambda xp, x, y: xp.greater(x, y), kernel="({0} > {1})")
ge_p = nondiff("ge", lambda xp, x, y: xp.greater_equal(x, y), kernel="({0} >= {1})")
and_p = nondiff("and", lambda xp, x, y: xp.bitwise_and(x, y), kernel="({0} & {1})")
or_p = nondiff("or", lambda xp, x, y: xp.bitwise_or(x, y), kernel="({0} | {1})")
xor_p = nondiff("xor", lambda xp, x, y: xp.bitwise_xor(x, y), kernel="({0} ^ {1})")
logical_and_p = nondiff("logical_and", lambda xp, x, y: xp.logical_and(_truth(xp, x), _truth(xp, y)),
                        kernel="({0} && {1})")
logical_or_p = nondiff("logical_or", lambda xp, x, y: xp.logical_or(_truth(xp, x), _truth(xp, y)),
                       kernel="({0} || {1})")
logical_xor_p = nondiff("logical_xor", lambda xp, x, y: xp.logical_xor(_truth(xp, x), _truth(xp, y)),
                        kernel="(!{0} != !{1})")


def eq(x, y):
    return eq_p.bind(x, y)


def lt(x, y):
    return lt_p.bind(x, y)


def le(x, y):
    return le_p.bind(x, y)


def ge(x, y):
    return ge_p.bind(x, y)


def gt(x, y):
    return gt_p.bind(x, y)


def logical_and(x, y):
    return logical_and_p.bind(x, y)


def logical_or(x, y):
    return logical_or_p.bind(x, y)


_UINT_OF_SIZE = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
_BLEND_MIN_SIZE = 1024


def host_where(c, x, y):
    """``np.where(c, x, y)`` with the same bits, faster on large host arrays: NumPy's ``where``
    takes a data-dependent branch per element, which an irregular mask (ReLU's ``x < 0`` on
    random data) mispredicts half the time (~7x slower than arithmetic).  Two same-dtype real
    operands are blended branch-free on their bit patterns instead: ``y ^ ((x ^ y) & m)``
    with ``m`` all ones where ``c``.  Anything else (devices, scalars, mixed dtypes) goes
    to ``np.where``.  A Python float next to a float array is that array's dtype (NumPy's
    rule for Python scalars), so it is blended as a 0-d array of it.

    >>> host_where(np.arange(2048) % 3 == 0, np.ones(2048), np.zeros(2048))[:4].tolist()
    [1.0, 0.0, 0.0, 1.0]
    >>> host_where(np.arange(2048) % 3 == 0, np.ones(2048, np.float32), 0.5)[:3].tolist()
    [1.0, 0.5, 0.5]
    """
    if type(y) is float and type(x) is np.ndarray and x.dtype.kind == "f":
        y = np.asarray(y, x.dtype)
    elif type(x) is float and type(y) is np.ndarray and y.dtype.kind == "f":
        x = np.asarray(x, y.dtype)
    if (type(c) is np.ndarray and c.size >= _BLEND_MIN_SIZE and type(x) is np.ndarray
            and type(y) is np.ndarray and c.dtype == np.bool_ and x.dtype == y.dtype
            and x.dtype.kind in "fiu"):  # the size first: small selects go straight to np.where
        u = _UINT_OF_SIZE.get(x.dtype.itemsize)
        if u is not None:
            xb, yb = x.view(u), y.view(u)
            m = c.astype(u)
            np.negative(m, out=m)  # 1 -> all ones (unsigned wrap-around)
            d = np.bitwise_xor(xb, yb)
            d = np.bitwise_and(d, m, out=d) if d.shape == m.shape else np.bitwise_and(d, m)
            np.bitwise_xor(d, yb, out=d)
            return d.view(x.dtype)
    return np.where(_condition(c), x, y)


def _condition(c):
    """A select condition that ``cupy.where`` takes: it calls ``c.astype``, which a Python
    bool (a literal or weak scalar in a program) lacks; ``np.bool_`` has it (and NumPy's
    ``where`` gives the same result for both)."""
    return c if hasattr(c, "astype") else np.bool_(c)


def host_select_n(c, f, t):
    """JAX's ``select_n(c, f, t)`` on host or device arrays: ``t`` where ``c``, else ``f``
    (``host_where`` with the cases in ``select_n``'s order).

    >>> host_select_n(np.array([True, False]), np.zeros(2), np.ones(2)).tolist()
    [1.0, 0.0]
    """
    return host_where(c, t, f)


def _small_select_n(c, f, t):
    return np.where(c, t, f)


# JAX's primitive and operand order: select_n(pred, on_false, on_true) (fgrad's broadcasts)
def _int_literal_like(v, other):
    """A Python int operand of a device ``where`` in its integer partner's dtype, wrapped as
    NumPy's ``where`` and JAX wrap it (``where(c, -1, uint8)`` selects 255): cupy converts it
    to that dtype itself and refuses a value out of its range."""
    if type(v) is int and getattr(other, "dtype", None) is not None and other.dtype.kind in "iu":
        return np.asarray(v).astype(other.dtype)[()]
    return v


def _device_where(xp, c, f, t):
    return xp.where(_condition(c), _int_literal_like(t, f), _int_literal_like(f, t))


select_p = elementwise(
    "select_n", lambda xp, c, f, t: host_where(c, t, f) if xp is np else _device_where(xp, c, f, t),
    kernel="({0} ? {2} : {1})",
)


# programs on the host call NumPy's `where` itself for outputs below the blending size
select_p.small_host_ufunc = (_small_select_n, _BLEND_MIN_SIZE)


def select(c: ArrayLike, x: ArrayLike, y: ArrayLike) -> Array:
    """``where(c, x, y)`` elementwise (with broadcasting): binds ``select_n(c, y, x)``."""
    return select_p.bind(c, y, x)


def _select_jvp(primals, tangents):
    c, f, t = primals
    _, tf, tt = tangents
    out = select_p.bind(c, f, t)
    if tf is None and tt is None:
        return out, None
    zero = _zeros_of(out) if (tf is None or tt is None) else None
    return out, _broadcast_like(select_p.bind(c, zero if tf is None else tf, zero if tt is None else tt), out)


def _select_transpose(ct, c, f, t):
    if is_undefined(c):
        raise ValueError("select_n is not linear in its predicate")
    zeros = _zeros_of(ct)
    return (None,
            unbroadcast(select(c, zeros, ct), f.aval) if is_undefined(f) else None,
            unbroadcast(select(c, ct, zeros), t.aval) if is_undefined(t) else None)


def _broadcast_like(t, out):
    return t if shape(t) == shape(out) else broadcast_to(t, shape(out))


deflinear(select_p, _select_transpose, jvp=_select_jvp)


# JAX's clamp(min, x, max): min(max(x, min), max), NaN anywhere giving NaN; the derivative
# flows to x strictly inside (min, max), to min where it exceeds x (and max), to max where it
# is below x -- nothing at a tie, as JAX's rule (jnp.clip's max/min split a tie in halves)
def _clamp_impl(xp, lo, x, hi):
    return xp.minimum(xp.maximum(x, lo), hi)


clamp_p = elementwise("clamp", _clamp_impl, kernel={"fiub": "fg_clamp({0}, {1}, {2})"})


def _clamp_tangent(t, where):
    return select(where, t, _zeros_of(t))


defjvp(clamp_p,
       lambda t, lo, x, hi: _clamp_tangent(t, logical_and(gt(lo, x), lt(lo, hi))),
       lambda t, lo, x, hi: _clamp_tangent(t, logical_and(gt(x, lo), lt(x, hi))),
       lambda t, lo, x, hi: _clamp_tangent(t, lt(hi, x)))
defjvp2(abs_p, _abs_tangent)
deflinear(conj_p, lambda ct, x: (conj(ct),))
deflinear(complex_p, _complex_transpose,
          partials=(lambda t, x, y: complex_p.bind(t, zeros_like(t)),
                    lambda t, x, y: complex_p.bind(zeros_like(t), t)))
deflinear(real_p, _real_transpose)
deflinear(imag_p, lambda ct, x: (mul(ct, -1j) if dtype_kind(x.aval.dtype) == "c" else _zeros_of(ct),))


# (src, dst, saturate) -> (drop the imaginary part, saturate, float32 -> bfloat16): per call otherwise
_CAST_PLAN: dict = {}


def _convert_impl(xp, x, new_dtype, weak_type=False, saturate=True):
    x = xp.asarray(x)
    key = (x.dtype, new_dtype, saturate)
    plan = _CAST_PLAN.get(key)
    if plan is None:
        # JAX's rule: complex -> real drops the imaginary part (NumPy would warn)
        plan = _CAST_PLAN[key] = (dtype_kind(x.dtype) == "c" and dtype_kind(new_dtype) != "c",
                                  bool(saturate) and saturates(x.dtype, new_dtype),
                                  x.dtype == np.float32 and np.dtype(new_dtype) == np.dtype(BF16))
    if plan[0]:
        x = x.real
    if plan[1]:
        return _saturating_cast(xp, x, np.dtype(new_dtype))
    if plan[2] and xp is np:  # (ml_dtypes' cast, in one vectorized C pass where it can)
        if 0 in x.strides and x.size >= _native_casts.MIN_SIZE:
            # a broadcast (a sum's cotangent): ml_dtypes casts one element at a time (131k
            # values: ~390 us); a contiguous copy and the native cast ~30 us
            x = np.ascontiguousarray(x)
        r = _native_casts.f32_to_bf16(x)
        if r is not None:
            return r
    return x.astype(new_dtype, copy=False)


def saturates(src: np.dtype, dst: Any, params: dict | None = None) -> bool:
    """Whether a cast from ``src`` to ``dst`` (with the primitive's ``params``) is float (or
    complex) to integer, which JAX (XLA) saturates: values beyond the integer range become its
    min/max, NaN becomes 0.  The PyTorch face casts with ``saturate=False`` (NumPy's cast, as
    PyTorch's on the CPU; out-of-range values are unspecified there).

    >>> import numpy as np
    >>> saturates(np.dtype(np.float32), np.int8), saturates(np.dtype(np.int64), np.int8)
    (True, False)
    """
    return dtype_kind(src) in "fc" and np.dtype(dst).kind in "iu" and \
        (params is None or params.get("saturate", True))


def _saturating_cast(xp, x, dt):
    """XLA's float -> integer conversion: truncation toward zero, clamped to ``dt``'s range,
    NaN to 0 (NumPy's cast of such values is undefined: int32(1.7e10) is -2**31)."""
    info = np.iinfo(dt)
    # compared in float64 (a 0-d array is not weakly typed): float32(2**31 - 1) would round up
    hi = x >= xp.asarray(float(info.max), dtype=np.float64)
    lo = x <= xp.asarray(float(info.min), dtype=np.float64)
    bad = hi | lo | xp.isnan(x)
    out = xp.where(bad, xp.zeros((), x.dtype), x).astype(dt)
    return xp.where(hi, dt.type(info.max), xp.where(lo, dt.type(info.min), out))


convert_element_type_p = elementwise("convert_element_type", _convert_impl, kernel="{0}")


def convert_element_type(x, new_dtype, weak_type: bool = False, saturate: bool = True):
    """``x`` as ``new_dtype``; the result is strongly typed unless ``weak_type`` (JAX's
    ``lax._convert_element_type(x, dtype, weak_type)``).  Floats cast to integers saturate, as
    in JAX (`saturates`); ``saturate=False`` casts as NumPy and PyTorch do."""
    new_dtype = np.dtype(new_dtype)
    if not saturate and new_dtype.kind in "iu" and not isinstance(x, (int, float, complex)) \
            and dtype_kind(get_aval(x).dtype) in "fc":
        return convert_element_type_p.bind(x, new_dtype=new_dtype, saturate=False)
    if not isinstance(x, (int, float, complex)):
        av = get_aval(x)
        if av.dtype == new_dtype:
            if av.weak_type == weak_type:
                return x
            if type(x) is ArrayImpl:
                return wrap(x._buf, weak_type)
    if weak_type:
        out = convert_element_type_p.bind(x, new_dtype=new_dtype, weak_type=True)
        return wrap(out._buf, True) if type(out) is ArrayImpl else out
    return convert_element_type_p.bind(x, new_dtype=new_dtype)


def strip_weak(x):
    """``x`` strongly typed (the same values and dtype), as JAX's reductions return."""
    return convert_element_type(x, get_aval(x).dtype) if get_aval(x).weak_type else x


def _convert_jvp(primals, tangents, new_dtype, weak_type=False, saturate=True):
    (x,), (t,) = primals, tangents
    out = convert_element_type(x, new_dtype, weak_type, saturate)
    if dtype_kind(new_dtype) not in "fc":
        return out, None
    if dtype_kind(new_dtype) == "f" and dtype_kind(get_aval(t).dtype) == "c":
        t = real(t)
    return out, convert_element_type(t, new_dtype, weak_type)


def _convert_transpose(ct, x, new_dtype, weak_type=False, saturate=True):
    return (convert_element_type(ct, x.aval.dtype),)


deflinear(convert_element_type_p, _convert_transpose, jvp=_convert_jvp)

# primitives that are exactly one NumPy ufunc: the eager fast path and generated code call it directly
for _p, _u in ((add_p, np.add), (add_any_p, np.add), (sub_p, np.subtract), (mul_p, np.multiply),
               (div_p, np.true_divide), (neg_p, np.negative), (eq_p, np.equal), (ne_p, np.not_equal),
               (lt_p, np.less),
               (le_p, np.less_equal), (gt_p, np.greater), (ge_p, np.greater_equal),
               (and_p, np.bitwise_and), (or_p, np.bitwise_or), (xor_p, np.bitwise_xor),
               (logical_and_p, np.logical_and), (logical_or_p, np.logical_or),
               (logical_xor_p, np.logical_xor), (select_p, host_select_n),
               (real_p, np.real), (imag_p, np.imag)):  # not conj_p: np.conjugate of bool is int8
    _p.ufunc = _u

# NumPy reports IEEE special values (log(0), 0/0, overflow, sqrt(-1), NaN compared as complex,
# a NaN cast to int) as RuntimeWarnings; JAX computes them silently and so does fgrad: every
# primitive that can hit one runs its implementation with the reports off (`may_warn`; the eager
# fast paths use `quiet_ufunc`, generated programs switch them off once per call)
# (not max/min/fmax/fmin: ml_dtypes' bfloat16 ufuncs report "invalid value" for a NaN operand)
_NEVER_WARN = {abs_p, and_p, asinh_p, cbrt_p, ceil_p, conj_p, eq_p, floor_p,
               hypot_p, imag_p, invert_p, isfinite_p, isinf_p, isnan_p, logical_and_p, logical_not_p,
               logical_or_p, logical_xor_p, ne_p, neg_p, or_p, real_p, round_p, select_p,
               sign_p, signbit_p, trunc_p, xor_p}
for _p in list(globals().values()):
    if isinstance(_p, Primitive) and _p.family == "elementwise":
        _p.may_warn = _p not in _NEVER_WARN
        if _p.may_warn:
            # one-ufunc primitives take no parameters: a fixed-arity wrapper is cheaper
            _code = _p.impl.__code__
            _n = _code.co_argcount if getattr(_p, "ufunc", None) is not None and not _code.co_kwonlyargcount \
                else None
            _p.impl = quiet(_p.impl, _n if _n in (2, 3) else None)
        _u = getattr(_p, "ufunc", None)
        _p.quiet_ufunc = None if _u is None else (quiet(_u) if _p.may_warn else _u)


def _take_jax_params(prim: Primitive, **defaults) -> None:
    """``prim.bind`` also takes JAX's parameters ``defaults`` at those values (dropped before
    the trace sees them): the promoting bind is rebuilt over `core.primitive.accept_jax_params`'s
    ``bind``, so the other primitives' binds are untouched."""
    del prim.bind
    accept_jax_params(prim, **defaults)
    prim.bind = _promoting_bind(prim)


# JAX 0.10.2's ``bind`` of its transcendental functions takes ``accuracy`` and ``mul``'s takes
# ``out_dtype`` (both None in every jaxpr JAX makes by default): an interpreter binding
# ``eqn.params`` of a JAX jaxpr runs on fgrad's primitives
for _p in (cbrt_p, cos_p, exp2_p, exp_p, expm1_p, log1p_p, log_p, logistic_p, rsqrt_p, sin_p, sqrt_p,
           tan_p, tanh_p):
    _take_jax_params(_p, accuracy=None)
_take_jax_params(mul_p, out_dtype=None)
