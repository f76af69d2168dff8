"""``torch.ops``: the registry of named operators (``torch.ops.<namespace>.<name>``).

A custom operator made by `fgrad.torch.library.custom_op` or `Library.define` is entered
here by its qualified name ``"ns::name"``; ``torch.ops.ns.name`` is its
`OpOverloadPacket` and ``torch.ops.ns.name.default`` its `OpOverload` (both call it).
``torch.ops.aten.<name>`` resolves to fgrad.torch's own function of that name (every
overload -- ``.default``, ``.Tensor``, ``.Scalar`` -- is the same Python function).

Example::

    >>> import fgrad.torch as torch
    >>> torch.ops.aten.add.Tensor(torch.tensor([1.0]), torch.tensor([2.0]))
    tensor([3.])
"""

from __future__ import annotations

import importlib
import types
from typing import Any, Callable

__all__ = ["OpOverload", "OpOverloadPacket", "ops"]

# "ns::name" -> the callable that runs the operator (a CustomOpDef, or a Library's op)
REGISTRY: dict[str, Any] = {}


def register(qualname: str, op: Any) -> None:
    """Enter ``op`` as ``torch.ops.<ns>.<name>`` (a later definition replaces an earlier one)."""
    REGISTRY[qualname] = op


def unregister(qualname: str) -> None:
    REGISTRY.pop(qualname, None)


class OpOverload:
    """One overload of a named operator (``torch.ops.ns.name.default``): calling it runs the op."""

    def __init__(self, packet: OpOverloadPacket, overload: str) -> None:
        self._packet = packet
        self._overloadname = overload

    @property
    def _schema(self) -> str:
        return self._packet._schema

    @property
    def overloadpacket(self) -> OpOverloadPacket:
        return self._packet

    def name(self) -> str:
        return f"{self._packet._qualified_op_name}.{self._overloadname}"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._packet._fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<OpOverload(op='{self._packet._dotted}', overload='{self._overloadname}')>"


class OpOverloadPacket:
    """All overloads of a named operator (``torch.ops.ns.name``): calling it runs the op."""

    def __init__(self, qualname: str, fn: Callable[..., Any], schema: str = "") -> None:
        self._qualified_op_name = qualname
        self._dotted = qualname.replace("::", ".")
        self._fn = fn
        self._schema = schema
        self.default = OpOverload(self, "default")

    def overloads(self) -> list[str]:
        return ["default"]

    def __getattr__(self, name: str) -> OpOverload:
        if name.startswith("__") or not self._qualified_op_name.startswith("aten::"):
            raise AttributeError(f"'{self._dotted}' has no overload '{name}'")
        return OpOverload(self, name)  # aten's overloads (.Tensor, .Scalar, ...) are one function here

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self._fn(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<OpOverloadPacket(op='{self._dotted}')>"


class _OpNamespace(types.ModuleType):
    """``torch.ops.<namespace>``: attribute access finds the operators defined in it."""

    def __init__(self, name: str) -> None:
        super().__init__(f"torch.ops.{name}")
        self.name = name

    def __getattr__(self, op_name: str) -> OpOverloadPacket:
        if op_name.startswith("__"):
            raise AttributeError(op_name)
        qualname = f"{self.name}::{op_name}"
        op = REGISTRY.get(qualname)
        if op is not None:
            return OpOverloadPacket(qualname, op, str(getattr(op, "_schema", "")))
        if self.name == "aten":
            fn = getattr(importlib.import_module("fgrad.torch"), op_name, None)
            if callable(fn):
                return OpOverloadPacket(qualname, fn)
        raise AttributeError(f"'_OpNamespace' '{self.name}' object has no attribute '{op_name}'")


class _Ops(types.ModuleType):
    """``torch.ops``: ``torch.ops.<namespace>.<name>`` for every registered operator."""

    def __init__(self) -> None:
        super().__init__("torch.ops")
        self._namespaces: dict[str, _OpNamespace] = {}

    def __getattr__(self, name: str) -> _OpNamespace:
        if name.startswith("__"):
            raise AttributeError(name)
        if name not in self._namespaces:
            self._namespaces[name] = _OpNamespace(name)
        return self._namespaces[name]

    def load_library(self, path: str) -> None:
        raise RuntimeError(f"torch.ops.load_library({path!r}): fgrad cannot load compiled C++ operator "
                           "libraries; define the operator in Python with torch.library.custom_op")


ops = _Ops()
