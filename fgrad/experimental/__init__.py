"""`fgrad.experimental`: the parts of ``jax.experimental`` that programs import --
`ode.odeint` (adaptive Dormand-Prince with adjoint derivatives).

Example::

    >>> from fgrad.experimental.ode import odeint
    >>> callable(odeint)
    True
"""

from __future__ import annotations

import fgrad.experimental.ode as ode

__all__ = ["ode"]
