"""JAX's argument check for `fgrad.numpy` functions: a Python list or tuple is not an array.

JAX's ``jnp`` functions (all but the constructors: ``array``, ``asarray``, ``stack``, ...) raise
a TypeError for a list or tuple argument, so that ``jnp.sin([x, y])`` does not silently build an
array per call; fgrad's raise the same error (NumPy would convert).

>>> check_arraylike("sin", [1.0, 2.0])
Traceback (most recent call last):
TypeError: sin requires ndarray or scalar arguments, got <class 'list'> at position 0.
>>> check_arraylike("add", 1.0, (2.0,))
Traceback (most recent call last):
TypeError: add requires ndarray or scalar arguments, got <class 'tuple'> at position 1.
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["ARRAY_POSITIONS", "check_arraylike", "reject_lists"]

# positions of the arguments JAX 0.10.2 checks (a list or tuple there raises TypeError), for the
# public functions that are not generated elementwise wrappers (those check their own operands);
# read off JAX by calling each function with a list at each position
_POSITIONS: dict[tuple[int, ...], tuple[str, ...]] = {
    (0,): (
        "all", "any", "append", "arange", "argmax", "argmin", "argsort", "argwhere", "around",
        "array_split", "astype", "atleast_1d", "atleast_2d", "atleast_3d", "bincount", "bitwise_count",
        "bitwise_invert", "broadcast_arrays", "broadcast_to", "choose", "clip", "copy", "corrcoef",
        "count_nonzero", "cov", "cumprod", "cumsum", "cumulative_prod", "cumulative_sum", "diag",
        "diag_indices_from", "diagflat", "diagonal", "diff", "dsplit", "ediff1d", "empty_like",
        "expand_dims", "fabs", "flatnonzero", "flip", "fliplr", "flipud", "frexp", "histogram",
        "histogram_bin_edges", "histogramdd", "hsplit", "i0", "iscomplex", "isneginf", "isposinf",
        "isreal", "ix_", "matrix_transpose", "median", "meshgrid", "modf", "moveaxis", "nan_to_num",
        "nanargmax", "nanargmin", "nancumprod", "nancumsum", "nanmax", "nanmean", "nanmedian", "nanmin",
        "nanprod", "nanstd", "nansum", "nanvar", "nonzero", "ones_like", "packbits", "pad",
        "permute_dims", "piecewise", "poly", "polyder", "polyint", "positive", "ravel", "reciprocal",
        "reshape", "rint", "roll", "roots", "rot90", "round", "sort", "sort_complex", "spacing",
        "split", "square", "squeeze", "tile", "trace", "transpose", "trapezoid", "tril",
        "tril_indices_from", "trim_zeros", "triu", "triu_indices_from", "unique", "unique_all",
        "unique_counts", "unique_inverse", "unique_values", "unpackbits", "unravel_index", "unstack",
        "unwrap", "vander", "vsplit", "where", "zeros_like"),
    (0, 1): (
        "bitwise_left_shift", "bitwise_right_shift", "compress", "convolve", "correlate", "cross",
        "delete", "digitize", "dot", "extract", "float_power", "full_like", "gcd", "heaviside", "histogram2d",
        "inner", "intersect1d", "isin", "kron", "lcm", "ldexp", "left_shift", "linspace", "matmul",
        "matvec", "nanpercentile", "nanquantile", "outer", "percentile", "polyadd", "polydiv",
        "polymul", "polysub", "polyval", "quantile", "repeat", "right_shift", "searchsorted",
        "setdiff1d", "setxor1d", "take", "take_along_axis", "tensordot", "union1d", "vdot", "vecdot",
        "vecmat"),
    (0, 1, 2): (
        "insert", "interp", "place"),
}
ARRAY_POSITIONS: dict[str, tuple[int, ...]] = {n: p for p, names in _POSITIONS.items() for n in names}
# the name in JAX's message where it is not the function's own
_ERROR_NAME = {
    "append": "ravel", "around": "round", "bitwise_right_shift": "right_shift", "empty_like": "ones_like",
    "extract": "extreact", "flatnonzero": "ravel", "iscomplex": "imag", "isreal": "imag", "ix_": "ix",
    "vecdot": "jnp.vecdot", "vecmat": "matvec",
}  # (JAX's own spellings, "extreact" included)


def check_arraylike(name: str, *args: Any) -> None:
    """Raise JAX's TypeError if an argument of the ``jnp`` function ``name`` is a list or tuple."""
    for i, a in enumerate(args):
        if isinstance(a, (list, tuple)):
            raise TypeError(f"{name} requires ndarray or scalar arguments, got {type(a)} at position {i}.")


def reject_lists(namespace: dict) -> None:
    """Wrap the functions of ``namespace`` (a module's globals) named in `ARRAY_POSITIONS` so
    that a list or tuple at one of their array positions raises JAX's TypeError; fgrad's own
    modules import the unwrapped functions.

    >>> import fgrad.numpy as fnp
    >>> fnp.cumsum([1, 2])
    Traceback (most recent call last):
    TypeError: cumsum requires ndarray or scalar arguments, got <class 'list'> at position 0.
    """
    wrapped: dict[int, Any] = {}  # one wrapper per function: aliases (round/around) stay one object
    for name, positions in ARRAY_POSITIONS.items():
        f = namespace.get(name)
        if callable(f) and not hasattr(f, "__wrapped_arraylike__"):
            if id(f) not in wrapped:
                wrapped[id(f)] = _rejecting(f, _ERROR_NAME.get(name, name), positions)
            namespace[name] = wrapped[id(f)]


def _rejecting(f: Any, name: str, positions: tuple[int, ...]) -> Any:
    last = max(positions) + 1

    @functools.wraps(f)
    def checked(*args: Any, **kwargs: Any) -> Any:
        for i in positions:
            if i < len(args) and (type(args[i]) is list or type(args[i]) is tuple):
                check_arraylike(name, *args[:last])
        return f(*args, **kwargs)

    checked.__wrapped_arraylike__ = True
    return checked
