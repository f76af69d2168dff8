"""Floating-point error reports off inside fgrad's computations: see `fgrad.core.quiet`
(the helpers live in the core, below the executor that uses them; re-exported here)."""

from __future__ import annotations

from ..core.quiet import quiet, switch

__all__ = ["quiet", "switch"]
