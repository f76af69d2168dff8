"""``fgrad.torch.utils.safetensors``: ``safetensors.torch``'s ``save_file``/``load_file``/``save``/
``load`` for shim tensors, on fgrad's own reader/writer (the ``safetensors`` package is not
needed; its files and fgrad's are the same).  Use it for ``state_dict``s shared with PyTorch::

    model.load_state_dict(load_file("model.safetensors"))

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.utils.safetensors import load, save
    >>> load(save({"w": torch.ones(2, 2)}))["w"].shape
    torch.Size([2, 2])
"""

from __future__ import annotations

import os

import fgrad.torch._dtypes as D
from fgrad.io import safetensors_format as _fmt
from fgrad.torch._dlpack import from_dlpack
from fgrad.torch._tensor import Tensor


def _host(tensors: dict) -> dict:
    if not isinstance(tensors, dict):
        raise TypeError(
            f"safetensors: expected a dict of tensors (a state_dict), got {type(tensors).__name__}"
        )
    out = {}
    for name, t in tensors.items():
        if not isinstance(t, Tensor):
            raise TypeError(f"safetensors: {name!r} is a {type(t).__name__}, not a Tensor")
        out[name] = t.detach().cpu().numpy()
    return out


def _tensors(arrays: dict, device) -> dict[str, Tensor]:
    out = {}
    for name, a in arrays.items():
        D.from_np(a.dtype)
        t = from_dlpack(a)
        out[name] = t if device in (None, "cpu") else t.to(device)
    return out


def save(tensors: dict[str, Tensor], metadata: dict[str, str] | None = None) -> bytes:
    """The safetensors bytes of a ``{name: Tensor}`` dict.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.utils import safetensors
        >>> data = safetensors.save({'w': torch.tensor([1.0, 2.0])})
        >>> safetensors.load(data)
        {'w': tensor([1., 2.])}
    """
    return _fmt.dumps(_host(tensors), metadata)


def load(data: bytes) -> dict[str, Tensor]:
    """``{name: Tensor}`` from safetensors bytes.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.utils import safetensors
        >>> safetensors.load(safetensors.save({'b': torch.tensor([[1, 2]])}))['b']
        tensor([[1, 2]])
    """
    return _tensors(_fmt.loads(data)[0], None)


def save_file(tensors: dict[str, Tensor], filename: str | os.PathLike,
              metadata: dict[str, str] | None = None) -> None:
    """Write a ``{name: Tensor}`` dict (a ``state_dict``) to a .safetensors file.

    Example::

        >>> import os, tempfile, fgrad.torch as torch
        >>> p = os.path.join(tempfile.mkdtemp(), "m.safetensors")
        >>> save_file({"b": torch.zeros(3)}, p)
        >>> load_file(p)["b"]
        tensor([0., 0., 0.])
    """
    _fmt.save_file(_host(tensors), filename, metadata)


def load_file(filename: str | os.PathLike, device: str = "cpu") -> dict[str, Tensor]:
    """``{name: Tensor}`` from a .safetensors file, on ``device``.

    Example::

        >>> import fgrad.torch as torch
        >>> import os, tempfile
        >>> from fgrad.torch.utils import safetensors
        >>> path = os.path.join(tempfile.mkdtemp(), 'model.safetensors')
        >>> safetensors.save_file({'w': torch.ones(2)}, path)
        >>> safetensors.load_file(path)
        {'w': tensor([1., 1.])}
    """
    return _tensors(_fmt.load_file(filename)[0], device)


__all__ = ["load", "load_file", "save", "save_file"]
