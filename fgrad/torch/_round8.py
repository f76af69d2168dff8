"""Registration of the round-8 additions (`_complex_views`, `_signal`, `_ops_round8`,
`_inplace_round8`), round 9's `_ops_round9` (control flow, RNN cells, legacy methods) and
round 23's `_fake_quant` (fake quantization):
their top-level names go into ``fgrad.torch``, their methods onto `Tensor`, each wrapped as a
public entry point like the shim's other functions."""

from __future__ import annotations

from . import (_complex_views, _errors, _fake_quant, _inplace_round8, _ops_round8, _ops_round9, _ops_round13,
               _signal)
from ._tensor import Tensor


def install(namespace: dict) -> None:
    """Bind the functions into ``namespace`` (``fgrad.torch``'s globals) and the methods
    onto `Tensor`, never replacing an existing definition.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.view_as_real(torch.tensor([1j])).tolist()
        [[0.0, 1.0]]
    """
    for mod in (_complex_views, _signal, _ops_round8, _ops_round9, _ops_round13, _fake_quant):
        for name, fn in mod.FUNCTIONS.items():
            if name not in namespace:
                namespace[name] = _errors.public(fn, name)
        for name, fn in mod.METHODS.items():
            if name not in vars(Tensor):
                setattr(Tensor, name, fn)
    for name, fn in _ops_round8.REPLACE.items():
        namespace[name] = _errors.public(fn, name)
        setattr(Tensor, name, fn)
    _inplace_round8.install(namespace)
