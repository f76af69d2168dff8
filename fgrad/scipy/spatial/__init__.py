"""`fgrad.scipy.spatial`: rotations in 3-d (`transform.Rotation`, `transform.Slerp`), as
``jax.scipy.spatial``."""

from __future__ import annotations

import fgrad.scipy.spatial.transform as transform

__all__ = ["transform"]
