"""fgrad's primitives, by family (one module each).  The package's own names are JAX's
``jax.ops``: the segment reductions (`segment.py`)."""

from .segment import segment_max, segment_min, segment_prod, segment_sum  # noqa: F401
