"""``torch.onnx``: present so imports work; fgrad.torch cannot export ONNX graphs.

Example::

    >>> import fgrad.torch as torch
    >>> torch.onnx.is_in_onnx_export()
    False
"""

from __future__ import annotations
from typing import Any

__all__ = ["export", "is_in_onnx_export", "dynamo_export"]


def is_in_onnx_export() -> bool:
    """False: fgrad.torch never runs an ONNX export.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.onnx.is_in_onnx_export()
        False
    """
    return False


def export(model: Any, args: tuple[Any, ...] = (), f: Any = None, *unused: Any,
           **kwargs: dict[str, Any] | None) -> Any:
    """Not supported: raises RuntimeError (fgrad.torch records no TorchScript/FX graph to
    export). Save the weights with ``torch.save(model.state_dict(), path)``, load them into
    the same model under PyTorch and export there.

    Example::

        >>> import fgrad.torch as torch
        >>> try:
        ...     torch.onnx.export(torch.nn.Linear(1, 1), (torch.ones(1),))
        ... except RuntimeError:
        ...     print('no ONNX export in fgrad.torch')
        ...
        no ONNX export in fgrad.torch
    """
    raise RuntimeError(
        "torch.onnx.export is not supported by fgrad.torch (it has no graph capture to export "
        "from). Save the weights with torch.save(model.state_dict(), path), load them into the "
        "same model class under PyTorch, and call torch.onnx.export there."
    )


def dynamo_export(model: Any, *args: Any, **kwargs: Any) -> Any:
    """Not supported: raises RuntimeError, as `export`.

    Example::

        >>> import fgrad.torch as torch
        >>> try:
        ...     torch.onnx.dynamo_export(torch.nn.Linear(1, 1), torch.ones(1))
        ... except RuntimeError:
        ...     print('no ONNX export in fgrad.torch')
        ...
        no ONNX export in fgrad.torch
    """
    return export(model, args)
