"""`fgrad.scipy`: the ``jax.scipy`` surface over fgrad ops: `special`, `stats`, `linalg`,
`signal`, `optimize`, `fft`, `integrate`, `interpolate`, `ndimage`, `spatial`, `cluster`;
everything differentiable and transformable.

SciPy itself is optional: only some special functions need it, for their forward values.

Example::

    >>> import fgrad
    >>> from fgrad.scipy.stats import norm
    >>> fgrad.grad(norm.logpdf)(1.0)
    Array(-1., dtype=float64, weak_type=True)
"""

from __future__ import annotations

import fgrad.scipy.cluster as cluster
import fgrad.scipy.fft as fft
import fgrad.scipy.integrate as integrate
import fgrad.scipy.interpolate as interpolate
import fgrad.scipy.linalg as linalg
import fgrad.scipy.ndimage as ndimage
import fgrad.scipy.optimize as optimize
import fgrad.scipy.signal as signal
import fgrad.scipy.sparse as sparse
import fgrad.scipy.spatial as spatial
import fgrad.scipy.special as special
import fgrad.scipy.stats as stats

__all__ = ["cluster", "fft", "integrate", "interpolate", "linalg", "ndimage", "optimize", "signal", "sparse",
           "spatial", "special", "stats"]
