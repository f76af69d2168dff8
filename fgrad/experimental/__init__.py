"""`fgrad.experimental`: the parts of ``jax.experimental`` that programs import --
`ode.odeint` (adaptive Dormand-Prince with adjoint derivatives), `checkify` (runtime checks
under jit/vmap/grad), `jet` (Taylor-mode derivatives), `io_callback` (an effectful host
callback with results), and the ``enable_x64`` /
``disable_x64`` context managers older JAX versions kept here.

Example::

    >>> from fgrad.experimental.ode import odeint
    >>> callable(odeint)
    True
"""

from __future__ import annotations

from typing import Any

import fgrad.experimental.checkify as checkify
import fgrad.experimental.jet as jet
import fgrad.experimental.ode as ode
from .._callbacks_api import io_callback
from .._config import enable_x64 as _enable_x64_scope


def enable_x64(new_val: bool = True) -> Any:
    """Context manager: 64-bit types in the block (``jax.experimental.enable_x64``), or
    32-bit ones with ``new_val=False`` (as `disable_x64`); the setting before is restored.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import enable_x64
        >>> with enable_x64():
        ...     fnp.asarray(1.0).dtype
        dtype('float64')
    """
    return _enable_x64_scope(new_val)


def disable_x64() -> Any:
    """Context manager ``jax.experimental.disable_x64``: 32-bit types in the block (float32,
    int32, ... by default; 64-bit requests narrowed, as JAX without ``jax_enable_x64``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import disable_x64
        >>> with disable_x64():
        ...     fnp.arange(3.0).dtype
        dtype('float32')
    """
    return _enable_x64_scope(False)


__all__ = ["checkify", "disable_x64", "enable_x64", "io_callback", "jet", "ode", "shard_map"]
