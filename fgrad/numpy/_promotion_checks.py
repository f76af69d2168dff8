"""JAX's promotion checks on binary operations: ``jax_numpy_rank_promotion`` ("allow",
"warn", "raise": implicit broadcasting of operands of different non-zero ranks) and
``jax_numpy_dtype_promotion`` ("standard", "strict": operands of different dtypes, unless one
is a weakly typed Python scalar).  The elementwise binary faces of `fgrad.numpy` (and so the
Array operators) call `check_binary` while a check is on; `fgrad.config` sets the modes.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> with fgrad.numpy_rank_promotion("raise"):
    ...     try:
    ...         fnp.ones(3) + fnp.ones((2, 3))
    ...     except ValueError as e:
    ...         print(str(e).split(" and ")[0])
    Operands could not be broadcast together for add on shapes (3,) (2, 3)
"""

from __future__ import annotations

import warnings

import numpy as np

from .._config import on_option_change

_PY_SCALARS = (bool, int, float, complex)
rank_promotion = "allow"
dtype_promotion = "standard"
checking = False  # any check on (read by the binary faces on every call)


class TypePromotionError(ValueError):
    """Operands whose dtypes the strict promotion mode does not combine implicitly
    (``jax.dtypes.TypePromotionError``).

    Example::

        >>> import fgrad
        >>> issubclass(fgrad.dtypes.TypePromotionError, TypeError)
        False
    """


def _set_rank(value) -> None:
    global rank_promotion, checking
    rank_promotion = value
    checking = rank_promotion != "allow" or dtype_promotion != "standard"


def _set_dtype(value) -> None:
    global dtype_promotion, checking
    dtype_promotion = value
    checking = rank_promotion != "allow" or dtype_promotion != "standard"


on_option_change("jax_numpy_rank_promotion", _set_rank)
on_option_change("jax_numpy_dtype_promotion", _set_dtype)


def _shape(v) -> tuple:
    s = getattr(v, "shape", None)
    return tuple(s) if s is not None else np.shape(v)


def _weak(v) -> bool:
    return isinstance(v, _PY_SCALARS) or bool(getattr(v, "weak_type", False))


def check_binary(name: str, x, y) -> None:
    """Apply the rank and dtype promotion modes to the operands of binary op ``name``."""
    if rank_promotion != "allow":
        shapes = (_shape(x), _shape(y))
        if len({len(s) for s in shapes if s}) > 1:
            shown = " ".join(str(s) for s in shapes)
            if rank_promotion == "raise":
                raise ValueError(
                    f"Operands could not be broadcast together for {name} on shapes {shown} and with "
                    "the config option jax_numpy_rank_promotion='raise'. Broadcast explicitly "
                    "(fgrad.numpy.expand_dims / broadcast_to) or allow it with "
                    "fgrad.numpy_rank_promotion('allow').")
            warnings.warn(
                f"Following NumPy automatic rank promotion for {name} on shapes {shown}. Set the "
                "jax_numpy_rank_promotion config option to 'allow' to disable this warning.",
                UserWarning, stacklevel=3)
    if dtype_promotion == "strict" and not (_weak(x) or _weak(y)):
        dx, dy = np.result_type(getattr(x, "dtype", x)), np.result_type(getattr(y, "dtype", y))
        if dx != dy:
            raise TypePromotionError(
                f"Input dtypes ('{dx}', '{dy}') have no available implicit dtype promotion path when "
                f"jax_numpy_dtype_promotion=strict (in {name}). Try explicitly casting inputs to the "
                "desired output type, or set jax_numpy_dtype_promotion=standard.")


__all__ = ["TypePromotionError", "check_binary"]
