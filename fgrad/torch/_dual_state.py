"""The state of ``torch.autograd.forward_ad``'s dual level (no imports: `_dispatch` and
`forward_ad` both read it).

``trace`` is the `ForwardTrace` of the open level (None: no level); ``tensors`` holds weak
references to the tensors that hold a dual value of it, which become plain tensors (their
primal) when the level exits, as PyTorch's do.
"""

from __future__ import annotations

import weakref
from typing import Any


class DualLevel:
    __slots__ = ("trace", "scope", "tensors", "_prune_at")

    def __init__(self) -> None:
        self.trace: Any = None
        self.scope: Any = None
        self.tensors: list = []
        self._prune_at = 1024

    def track(self, t: Any) -> None:
        """Remember tensor ``t`` (it holds a dual value of the open level)."""
        self.tensors.append(weakref.ref(t))
        if len(self.tensors) >= self._prune_at:
            self.tensors = [r for r in self.tensors if r() is not None]
            self._prune_at = 2 * max(len(self.tensors), 512)


LEVEL = DualLevel()

# why reverse mode through dual tensors is refused, and what to write instead
NO_REVERSE = ("fgrad does not record reverse mode through torch.autograd.forward_ad; compose torch.func "
              "transforms instead (e.g. torch.func.jacrev(lambda x: torch.func.jvp(f, (x,), (v,))[1]), or "
              "torch.func.jvp(torch.func.grad(f), (x,), (v,)) for a Hessian-vector product)")
