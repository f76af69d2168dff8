"""`fgrad.scipy.cluster`: vector quantization (`vq`), as ``jax.scipy.cluster``."""

from __future__ import annotations

import fgrad.scipy.cluster.vq as vq

__all__ = ["vq"]
