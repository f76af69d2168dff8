"""Print options of fgrad Arrays: JAX's ``jnp.set_printoptions``, ``get_printoptions`` and
``printoptions``.  An Array prints through NumPy's formatter, so these are NumPy's options
(precision, threshold, edgeitems, linewidth, suppress, ...), set process-wide or for a block.

Example::

    >>> import fgrad.numpy as fnp
    >>> with printoptions(precision=2):
    ...     fnp.asarray([1.23456, 2.0])
    Array([1.23, 2.  ], dtype=float64)
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

import numpy as np

__all__ = ["set_printoptions", "get_printoptions", "printoptions"]


def set_printoptions(precision: int | None = None, threshold: int | None = None, edgeitems: int | None = None,
                     linewidth: int | None = None, suppress: bool | None = None, nanstr: str | None = None,
                     infstr: str | None = None, formatter: dict | None = None, sign: str | None = None,
                     floatmode: str | None = None, **kwargs: Any) -> None:
    """Set how Arrays print, as ``numpy.set_printoptions`` (whose options these are).

    Example::

        >>> set_printoptions(precision=4)
        >>> set_printoptions(precision=8)  # NumPy's default
    """
    np.set_printoptions(precision=precision, threshold=threshold, edgeitems=edgeitems, linewidth=linewidth,
                        suppress=suppress, nanstr=nanstr, infstr=infstr, formatter=formatter, sign=sign,
                        floatmode=floatmode, **kwargs)


def get_printoptions() -> dict:
    """The current print options (a dict, as ``numpy.get_printoptions``).

    Example::

        >>> get_printoptions()["precision"]
        8
    """
    return np.get_printoptions()


@contextlib.contextmanager
def printoptions(*args: Any, **kwargs: Any) -> Iterator[dict]:
    """A context manager setting print options for its block (``numpy.printoptions``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> with printoptions(suppress=True):
        ...     print(fnp.asarray([1e-9, 1.0]))
        [0. 1.]
    """
    with np.printoptions(*args, **kwargs) as opts:
        yield opts
