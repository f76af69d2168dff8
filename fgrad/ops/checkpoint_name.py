"""The ``name`` primitive: the identity, carrying a name that rematerialization policies
select (``fgrad.ad_checkpoint.checkpoint_name``; JAX's ``name_p``).

Example::

    >>> import numpy as np
    >>> name_p.bind(np.arange(2.0), name="h")
    Array([0., 1.], dtype=float64)
"""

from __future__ import annotations

from ..core.array import ShapedArray
from ..core.primitive import Primitive
from ..core.rules import deflinear, defvectorized


def _same(x, name):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


name_p = Primitive("name", lambda xp, x, name: x, _same)
deflinear(name_p, lambda ct, x, name: [ct])
defvectorized(name_p)
