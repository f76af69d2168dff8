"""``torch.library``: custom operators written in Python (PyTorch's "Python Custom Operators").

`custom_op` turns a function (typically one that leaves the tensor world -- NumPy, a C
library) into a named operator ``torch.ops.<ns>.<name>``; `CustomOpDef.register_fake` gives
its output shapes without running it, `CustomOpDef.register_autograd` its derivative.
`opcheck` tests a registration; `Library`/`define`/`impl` are the older schema-string way.

How the operator runs (see ``## How it is built`` in docs/torch-modules-round10.md):

- its kernel always sees concrete tensors, run without recording (as PyTorch's kernels run
  below autograd);
- with `register_autograd`, the call is an `autograd.Function` whose forward is the kernel
  and whose ``setup_context``/``backward`` are the registered ones -- so eager autograd and
  ``torch.func`` (a ``custom_vjp``) use the same formula;
- under ``torch.func`` transforms the kernel runs through `fgrad.pure_callback` on host
  values (one call per example under ``vmap``, PyTorch's slow fallback), with the output
  shapes from the fake implementation;
- without `register_autograd`, an input requiring grad gives an output requiring grad whose
  backward raises PyTorch's RuntimeError ("no autograd formula was registered").

Example::

    >>> import numpy as np, fgrad.torch as torch
    >>> @torch.library.custom_op("doc::np_sin", mutates_args=())
    ... def np_sin(x: torch.Tensor) -> torch.Tensor:
    ...     return torch.from_numpy(np.sin(x.numpy()))
    >>> torch.ops.doc.np_sin(torch.tensor([0.0]))
    tensor([0.])
"""

from __future__ import annotations

import collections.abc as _abc
import copy
import inspect
import numbers
import re
import types
import typing
import warnings
from typing import Any, Callable, Union

import numpy as np

import fgrad
from . import _op_registry
from ._device import DEV as _DEV
from ._dispatch import from_fgrad_value
import fgrad.torch as torch
from ._dtypes import dtype as _dtype
from ._tensor import Tensor, _wrap
from .autograd.function import Function, as_value
from .autograd.grad_mode import no_grad

__all__ = ["Library", "custom_op", "define", "fallthrough_kernel", "get_ctx", "impl", "impl_abstract",
           "infer_schema", "opcheck", "register_autograd", "register_fake", "register_kernel",
           "register_vmap", "CustomOpDef", "OpCheckError"]


class OpCheckError(Exception):
    """Raised by `opcheck` when one of its tests fails.

    Example::

        >>> import fgrad.torch as torch
        >>> issubclass(torch.library.OpCheckError, Exception)
        True
    """


def _concrete(t: Tensor) -> bool:
    b = t._buf
    return type(b) is np.ndarray or type(b) in _DEV


def _flat_tensors(values) -> list[Tensor]:
    out = []
    for v in values:
        if isinstance(v, Tensor):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(x for x in v if isinstance(x, Tensor))
    return out


# -- schema inference ------------------------------------------------------------------

def _is_tensor(a) -> bool:
    if isinstance(a, str):  # an annotation left as a string ("torch.Tensor")
        return a.split(".")[-1] == "Tensor"
    return a is Tensor or getattr(a, "__name__", None) == "Tensor"


def _optional_of(a):
    """``X | None`` -> X (else None)."""
    if typing.get_origin(a) in (Union, types.UnionType):
        args = [x for x in typing.get_args(a) if x is not type(None)]
        if len(args) == 1 and len(typing.get_args(a)) == 2:
            return args[0]
    return None


def _type_name(a) -> str | None:
    inner = _optional_of(a)
    if inner is not None:
        base = _type_name(inner)
        return None if base is None else base + "?"
    if _is_tensor(a):
        return "Tensor"
    if a is int:
        return "SymInt"
    if a is float:
        return "float"
    if a is bool:
        return "bool"
    if a is str:
        return "str"
    if a is _dtype:
        return "ScalarType"
    if getattr(a, "__name__", None) == "device":
        return "Device"
    if typing.get_origin(a) in (Union, types.UnionType) and set(typing.get_args(a)) <= {int, float, bool}:
        return "Scalar"
    if a is numbers.Number:
        return "Scalar"
    if typing.get_origin(a) in (list, typing.List, _abc.Sequence):
        (elem,) = typing.get_args(a) or (None,)
        inner = _optional_of(elem)
        if inner is not None and _is_tensor(inner):
            return "Tensor?[]"
        base = _type_name(elem) if elem is not None else None
        return None if base is None or base.endswith("?") else base + "[]"
    return None


def _default_repr(v) -> str:
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, _dtype):
        return str(v).replace("torch.", "")
    return str(v)


def infer_schema(prototype_function: Callable, /, *, mutates_args: Any, op_name: str | None = None,
                 tags: Any = ()) -> str:
    """The schema string of a function from its type annotations (PyTorch's format).

    ``mutates_args``: the names of the arguments it writes to, or ``"unknown"``.

    Example::

        >>> import fgrad.torch as torch
        >>> def f(x: torch.Tensor, n: int = 2) -> torch.Tensor: ...
        >>> torch.library.infer_schema(f, mutates_args=())
        '(Tensor x, SymInt n=2) -> Tensor'
    """
    sig = inspect.signature(prototype_function)
    try:
        hints = typing.get_type_hints(prototype_function)
    except Exception:
        hints = {k: p.annotation for k, p in sig.parameters.items()}
        hints["return"] = sig.return_annotation
    where = f"Got func with signature {sig})"
    unknown = mutates_args == "unknown"
    mutated = set() if unknown else set(mutates_args)
    params, kw_only_started = [], False
    for idx, (name, p) in enumerate(sig.parameters.items()):
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise ValueError(f"infer_schema(func): We do not support positional-only args, varargs, or "
                             f"varkwargs. {where}")
        ann = hints.get(name, p.annotation)
        if ann is inspect.Parameter.empty:
            raise ValueError(f"infer_schema(func): Parameter {name} must have a type annotation. {where}")
        tname = _type_name(ann)
        if tname is None:
            raise ValueError(f"infer_schema(func): Parameter {name} has unsupported type {ann!r}; the valid "
                             f"types are Tensor, int, float, bool, str, torch.dtype, torch.device, "
                             f"Optional/Sequence of them. {where}")
        if tname.startswith("Tensor") and (unknown or name in mutated):
            tname = f"Tensor(a{idx}!)" + tname[len("Tensor"):]
        elif name in mutated:
            raise ValueError(f"infer_schema(func): Parameter {name} is in mutable_args but only Tensors or "
                             f"collections of Tensors can be mutated. {where}")
        text = f"{tname} {name}"
        if p.default is not inspect.Parameter.empty:
            text += "=" + _default_repr(p.default)
        if p.kind == p.KEYWORD_ONLY and not kw_only_started:
            params.append("*")
            kw_only_started = True
        params.append(text)
    missing = mutated - set(sig.parameters)
    if missing:
        raise ValueError(f"infer_schema(func): {missing} in mutates_args were not found in the custom op's "
                         f"signature. mutates_args should contain the names of all args that the custom op "
                         f"mutates, or just the string 'unknown' if you don't know. {where}")
    ret = hints.get("return", sig.return_annotation)
    if ret is inspect.Parameter.empty:
        raise ValueError(f"infer_schema(func): No return type annotation was provided. Please add "
                         f"one. {where}")
    if ret is None or ret is type(None):
        rtext = "()"
    elif typing.get_origin(ret) is tuple:
        parts = [_type_name(a) for a in typing.get_args(ret)]
        if None in parts:
            raise ValueError(f"infer_schema(func): Return has unsupported type {ret!r}. {where}")
        rtext = "(" + ", ".join(parts) + ")"
    else:
        rtext = _type_name(ret)
        if rtext is None:
            raise ValueError(f"infer_schema(func): Return has unsupported type {ret!r}. {where}")
    return f"{op_name or ''}({', '.join(params)}) -> {rtext}"


def _signature_from_schema(schema: str) -> tuple[inspect.Signature, set[str]]:
    """``(Tensor x, SymInt n=2, *, float k=1.0) -> Tensor`` -> a Signature and the mutated names."""
    m = re.fullmatch(r"\s*[\w.]*\((.*)\)\s*->\s*(.*)", schema)
    if m is None:
        raise RuntimeError(f"torch.library: cannot parse the schema {schema!r}; expected "
                           "'name(Type arg, ...) -> Type'")
    params, mutated, kind = [], set(), inspect.Parameter.POSITIONAL_OR_KEYWORD
    for part in filter(None, (s.strip() for s in m.group(1).split(","))):
        if part == "*":
            kind = inspect.Parameter.KEYWORD_ONLY
            continue
        decl, _, default = part.partition("=")
        tname, name = decl.rsplit(None, 1)
        if "!" in tname:
            mutated.add(name)
        d: Any = inspect.Parameter.empty
        if default:
            d = {"None": None, "True": True, "False": False}.get(default, default)
            if isinstance(d, str):
                try:
                    d = int(d)
                except ValueError:
                    try:
                        d = float(d)
                    except ValueError:
                        d = d.strip("\"'")
        params.append(inspect.Parameter(name, kind, default=d))
    return inspect.Signature(params), mutated


# -- the fake-implementation context ------------------------------------------------------

class FakeImplCtx:
    """The context `get_ctx` returns inside a fake implementation."""

    def __init__(self) -> None:
        self.dynamic = False

    def new_dynamic_size(self, *, min: int = 0, max: int | None = None) -> int:  # noqa: A002
        """A data-dependent output size: fgrad cannot trace one, so only `opcheck` (which
        then compares the rank and dtype, not that size) and eager calls use it."""
        if _CTX.get("tracing"):
            raise RuntimeError("torch.library: a fake implementation with a data-dependent output size "
                               "(ctx.new_dynamic_size()) cannot run under torch.func transforms in fgrad: "
                               "the output shape must be known without the data")
        self.dynamic = True
        return int(min)

    new_unbacked_symint = new_dynamic_size


_CTX: dict[str, Any] = {}


def get_ctx() -> FakeImplCtx:
    """The `FakeImplCtx` of the fake implementation now running (``ctx.new_dynamic_size()``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.library.get_ctx()
        Traceback (most recent call last):
        ...
        RuntimeError: torch.library.get_ctx() called outside of a fake implementation
    """
    ctx = _CTX.get("ctx")
    if ctx is None:
        raise RuntimeError("torch.library.get_ctx() called outside of a fake implementation")
    return ctx


def _run_fake(fake: Callable, args, kwargs, tracing: bool):
    ctx = FakeImplCtx()
    saved = dict(_CTX)
    _CTX.update(ctx=ctx, tracing=tracing)
    try:
        with no_grad():
            return fake(*args, **kwargs), ctx
    finally:
        _CTX.clear()
        _CTX.update(saved)


# -- the operator ------------------------------------------------------------------------

class CustomOpDef:
    """A custom operator: calling it runs its kernel (see the module's notes).

    Example::

        >>> import fgrad.torch as torch
        >>> @torch.library.custom_op("doc::twice", mutates_args=())
        ... def twice(x: torch.Tensor) -> torch.Tensor:
        ...     return x * 2
        >>> twice(torch.tensor([1.0]))
        tensor([2.])
    """

    def __init__(self, namespace: str, name: str, schema: str, fn: Callable, tags: Any = None) -> None:
        self._namespace = namespace
        self._name = name
        self._schema = f"{namespace}::{name}({schema.split('(', 1)[1]}"
        self._init_fn = fn
        self._kernels: dict[str | None, Callable] = {}
        if fn is not None:
            self._kernels[None] = fn
        self._direct: Callable | None = None  # a CompositeImplicitAutograd / Autograd impl (Library.impl)
        self._abstract_fn: Callable | None = None
        self._backward_fn: Callable | None = None
        self._setup_context_fn: Callable | None = None
        self._vmap_fn: Callable | None = None
        self._disabled: set[str] = set()
        self._sig, self._mutated = _signature_from_schema(schema)
        self.__name__ = name
        self.__doc__ = getattr(fn, "__doc__", None)
        self._opoverload = _op_registry.OpOverloadPacket(self._qualname, self, self._schema).default

    @property
    def _qualname(self) -> str:
        return f"{self._namespace}::{self._name}"

    def __repr__(self) -> str:
        return f"<CustomOpDef({self._qualname})>"

    # -- registrations
    def register_fake(self, fn: Callable, /) -> Callable:
        """Register the function giving the output's shape and dtype (PyTorch's FakeTensor impl)."""
        self._abstract_fn = fn
        return fn

    def register_autograd(self, backward: Callable, /, *, setup_context: Callable | None = None) -> None:
        """Register ``backward(ctx, *grads)`` (one gradient per positional input, ``None`` for
        non-tensors) and ``setup_context(ctx, inputs, output)`` that saves what it needs."""
        if self._mutated:
            raise RuntimeError(f"{self._qualname}: register_autograd is not supported for a custom op that "
                               f"mutates its inputs ({sorted(self._mutated)}); write an out-of-place op")
        self._backward_fn = backward
        self._setup_context_fn = setup_context
        self._function_cls = None

    def register_kernel(self, device_types: str | _abc.Sequence[str] | None, fn: Callable | None = None,
                        /) -> Callable:
        """Register the kernel used for tensors on ``device_types`` (``"cpu"``, ``"cuda"``)."""
        def inner(f):
            devs = [device_types] if device_types is None or isinstance(device_types, str) else device_types
            for d in devs:
                self._kernels[d] = f
            return f
        return inner if fn is None else inner(fn)

    def register_vmap(self, func: Callable | None = None) -> Callable:
        """Accept a vmap rule.  fgrad runs the kernel once per example under ``vmap`` (the
        results a correct rule gives), so the rule is stored but not needed."""
        def inner(f):
            self._vmap_fn = f
            return f
        return inner if func is None else inner(func)

    def set_kernel_enabled(self, device_type: str, enabled: bool = True) -> Any:
        """Disable (or enable again) the kernel registered for ``device_type``."""
        (self._disabled.discard if enabled else self._disabled.add)(device_type)
        return _nullcontext()

    def register_torch_dispatch(self, torch_dispatch_class: Any, fn: Callable | None = None, /) -> Callable:
        raise NotImplementedError("torch.library: fgrad has no __torch_dispatch__ subclasses")

    # -- calling
    def _kernel_for(self, tensors: list[Tensor]) -> Callable:
        dev = tensors[0].device.type if tensors else "cpu"
        k = self._kernels.get(dev) if dev not in self._disabled else None
        k = k or self._kernels.get(None)
        if k is None:
            raise NotImplementedError(f"{self._qualname}: no kernel registered for device "
                                      f"'{dev}' (register one with impl/register_kernel)")
        return k

    def _run(self, args: tuple, kwargs: dict) -> Any:
        tensors = _flat_tensors((*args, *kwargs.values()))
        if all(_concrete(t) for t in tensors):
            with no_grad():
                out = self._kernel_for(tensors)(*args, **kwargs)
            self._check_alias(out, tensors)
            return out
        if self._mutated:
            raise RuntimeError(f"{self._qualname}: a custom op that mutates its inputs cannot run under "
                               "torch.func transforms in fgrad; call it outside the transform")
        return self._run_traced(args, kwargs, tensors)

    def _run_traced(self, args, kwargs, tensors):
        ids = {id(t): i for i, t in enumerate(tensors)}

        def rebuild(values, tmake):
            def one(v):
                if isinstance(v, Tensor):
                    return tmake(ids[id(v)])
                if isinstance(v, (list, tuple)):
                    return type(v)(one(x) for x in v)
                return v
            return tuple(one(v) for v in args), {k: one(v) for k, v in kwargs.items()}

        fargs, fkw = rebuild(args, lambda i: _wrap(np.zeros(tensors[i].shape, tensors[i].dtype.np)))
        fake = self._abstract_fn
        if fake is None:  # no fake impl: run the kernel on zeros for the shapes
            fake = self._kernel_for(tensors)
        spec_out, _ = _run_fake(fake, fargs, fkw, tracing=True)
        single = not isinstance(spec_out, (tuple, list))
        specs = [spec_out] if single else list(spec_out)
        shapes = [fgrad.ShapeDtypeStruct(tuple(o.shape), o.dtype.np) for o in specs]
        kernel = self._kernel_for(tensors)

        def callback(*vals):
            a, kw = rebuild(args, lambda i: _wrap(np.array(vals[i])))
            with no_grad():
                out = kernel(*a, **kw)
            outs = [out] if single else list(out)
            return [np.asarray(o._buf if _concrete(o) else o, dtype=s.dtype) for o, s in zip(outs, shapes,
                                                                                           strict=True)]

        res = fgrad.pure_callback(callback, shapes, *[as_value(t) for t in tensors], vmap_method="sequential")
        outs = [from_fgrad_value(r) for r in res]
        return outs[0] if single else tuple(outs)

    def _check_alias(self, out, tensors):
        outs = out if isinstance(out, (tuple, list)) else (out,)
        for o in outs:
            if not isinstance(o, Tensor):
                continue
            for t in tensors:
                if o is t or (type(o._buf) is np.ndarray and type(t._buf) is np.ndarray
                              and o._buf.size and np.shares_memory(o._buf, t._buf)):
                    raise RuntimeError(
                        f"{self._name} (with implementation in {self._kernel_for(tensors)!r}): The output "
                        "of this custom operator (1) must not also be an input to this custom operator and "
                        "(2) may not alias any inputs to this custom operator or other returns. The most "
                        "common way to trigger this error is if we have y = custom_op(x) and y and x are the "
                        "same Tensor. Please "
                        "instead return a clone of the offending output tensor(s) (e.g. return x.clone()) or "
                        "refactor the custom operator to not return y.")

    def _autograd_function(self) -> type:
        cls = getattr(self, "_function_cls", None)
        if cls is None:
            op = self
            has_bw = self._backward_fn is not None

            def forward(*args, **kwargs):
                return op._run(args, kwargs)

            def setup_context(ctx, inputs, output):
                if has_bw and op._setup_context_fn is not None:
                    op._setup_context_fn(ctx, inputs, output)

            def backward(ctx, *grads):
                if not has_bw:
                    dotted = op._qualname.replace("::", ".")
                    raise RuntimeError(f"Trying to backward through {dotted}.default but no autograd formula "
                                       "was registered. Please use register_autograd to add one.")
                return op._backward_fn(ctx, *grads)

            name = f"GeneratedBackwardFor_{self._namespace}_{self._name}_default"
            cls = type(name, (Function,), {"forward": staticmethod(forward),
                                           "setup_context": staticmethod(setup_context),
                                           "backward": staticmethod(backward)})
            self._function_cls = cls
        return cls

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        bound = self._sig.bind(*args, **kwargs)
        bound.apply_defaults()
        args, kwargs = bound.args, bound.kwargs
        if self._direct is not None:
            return self._direct(*args, **kwargs)
        tensors = _flat_tensors((*args, *kwargs.values()))
        if self._mutated:
            mutated = [bound.arguments[n] for n in self._mutated
                       if isinstance(bound.arguments.get(n), Tensor)]
            out = self._run(args, kwargs)
            for t in mutated:  # the written inputs' version counters move, as an in-place op's
                t._get_vc().v += 1
            return out
        differentiable = any(t.requires_grad or not _concrete(t) for t in tensors)
        if not differentiable:
            return self._run(args, kwargs)
        return self._autograd_function().apply(*args, **kwargs)


class _nullcontext:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: Any) -> None:
        return None


def _op_of(op: Any) -> CustomOpDef:
    if isinstance(op, CustomOpDef):
        return op
    if isinstance(op, (_op_registry.OpOverload, _op_registry.OpOverloadPacket)):
        packet = op if isinstance(op, _op_registry.OpOverloadPacket) else op._packet
        op = packet._qualified_op_name
    if isinstance(op, str):
        found = _op_registry.REGISTRY.get(op)
        if isinstance(found, CustomOpDef):
            return found
        raise ValueError(f"torch.library: no operator {op!r} is defined (define it with custom_op or "
                         "torch.library.define first)")
    raise TypeError("torch.library: expected an operator name 'ns::name', an OpOverload or a CustomOpDef, "
                    f"got {type(op).__name__}")


def _split_name(name: str) -> tuple[str, str]:
    if not isinstance(name, str) or name.count("::") != 1:
        raise ValueError(f"Expected there to be a namespace in {name!r}, i.e. The operator name should look "
                         "something like ns::foo")
    ns, op = name.split("::")
    if "." in op:
        raise ValueError("The torch.custom_ops APIs do not handle overloads, i.e. operator names with '.' "
                         f"in them. Please name your operator something like {ns}::{op.split('.')[0]}. "
                         f"Got {name}")
    return ns, op


def custom_op(name: str, fn: Callable | None = None, /, *, mutates_args: str | _abc.Iterable[str],
              device_types: str | _abc.Sequence[str] | None = None, schema: str | None = None,
              tags: Any = None) -> Any:
    """Wrap a function into a custom operator ``torch.ops.<ns>.<name>`` (a `CustomOpDef`).

    ``mutates_args``: the names of the tensor arguments it writes to (``()`` for none, or
    ``"unknown"``); ``device_types``: the devices this kernel is for; ``schema``: the schema
    string (inferred from the annotations by default).

    Example::

        >>> import numpy as np, fgrad.torch as torch
        >>> @torch.library.custom_op("doc::np_cos", mutates_args=())
        ... def np_cos(x: torch.Tensor) -> torch.Tensor:
        ...     return torch.from_numpy(np.cos(x.numpy()))
        >>> np_cos(torch.tensor([0.0]))
        tensor([1.])
    """
    def inner(f: Callable) -> CustomOpDef:
        ns, opname = _split_name(name)
        sch = schema if schema is not None else infer_schema(f, mutates_args=mutates_args)
        op = CustomOpDef(ns, opname, sch, f, tags)
        if device_types is not None:
            op._kernels.pop(None)
            op.register_kernel(device_types, f)
        _op_registry.register(op._qualname, op)
        return op
    return inner if fn is None else inner(fn)


def register_fake(op: Any, func: Callable | None = None, /, *, lib: Library | None = None,
                  _stacklevel: int = 1, allow_override: bool = True) -> Any:
    """Register the fake implementation (output shapes/dtypes) of ``op``.

    Example::

        >>> import fgrad.torch as torch
        >>> @torch.library.custom_op("doc::neg", mutates_args=())
        ... def neg(x: torch.Tensor) -> torch.Tensor:
        ...     return -x
        >>> _ = torch.library.register_fake("doc::neg", lambda x: torch.empty_like(x))
    """
    def inner(f):
        return _op_of(op).register_fake(f)
    return inner if func is None else inner(func)


def impl_abstract(qualname: str, func: Callable | None = None, *, lib: Library | None = None,
                  _stacklevel: int = 1) -> Any:
    """The old name of `register_fake` (FutureWarning, as PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.library.impl_abstract  # doctest: +ELLIPSIS
        <function impl_abstract at ...>
    """
    warnings.warn("`torch.library.impl_abstract` was renamed to `torch.library.register_fake`. Please use "
                  "that instead; we will remove `torch.library.impl_abstract` in a future version of "
                  "PyTorch.",
                  FutureWarning, stacklevel=2)
    return register_fake(qualname, func, lib=lib)


def register_autograd(op: Any, backward: Callable, /, *, setup_context: Callable | None = None,
                      lib: Library | None = None) -> None:
    """Register ``backward`` (and ``setup_context``) as the derivative of ``op``.

    Example::

        >>> import fgrad.torch as torch
        >>> @torch.library.custom_op("doc::sq", mutates_args=())
        ... def sq(x: torch.Tensor) -> torch.Tensor:
        ...     return x * x
        >>> torch.library.register_autograd("doc::sq", lambda ctx, g: 2 * ctx.x * g,
        ...     setup_context=lambda ctx, inputs, output: setattr(ctx, "x", inputs[0]))
        >>> x = torch.tensor([3.0], requires_grad=True)
        >>> sq(x).backward(); x.grad
        tensor([6.])
    """
    _op_of(op).register_autograd(backward, setup_context=setup_context)


def register_kernel(op: Any, device_types: str | _abc.Sequence[str] | None, func: Callable | None = None,
                    /, *, lib: Library | None = None) -> Any:
    """Register the kernel of ``op`` for ``device_types``.

    Example::

        >>> import fgrad.torch as torch
        >>> @torch.library.custom_op("doc::inc", mutates_args=(), device_types="cpu")
        ... def inc(x: torch.Tensor) -> torch.Tensor:
        ...     return x + 1
        >>> _ = torch.library.register_kernel("doc::inc", "cpu", lambda x: x + 2)
        >>> inc(torch.tensor([0.0]))
        tensor([2.])
    """
    return _op_of(op).register_kernel(device_types, func)


def register_vmap(op: Any, func: Callable | None = None, /, *, lib: Library | None = None) -> Any:
    """Accept a vmap rule for ``op`` (fgrad's vmap runs the kernel per example; see
    `CustomOpDef.register_vmap`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.library.register_vmap  # doctest: +ELLIPSIS
        <function register_vmap at ...>
    """
    return _op_of(op).register_vmap(func)


def fallthrough_kernel() -> None:
    """A placeholder kernel (PyTorch's dispatcher fallthrough); calling it is an error.

    Example::

        >>> import fgrad.torch as torch
        >>> callable(torch.library.fallthrough_kernel)
        True
    """
    raise NotImplementedError("fallthrough_kernel() should never be called.")


# -- the older API: Library / define / impl ---------------------------------------------------

_DIRECT_KEYS = ("CompositeImplicitAutograd", "Autograd", "AutogradCPU", "AutogradCUDA")


class Library:
    """A namespace of operators defined by schema strings (``kind``: ``"DEF"``, ``"FRAGMENT"``
    or ``"IMPL"``).

    Example::

        >>> import fgrad.torch as torch
        >>> lib = torch.library.Library("doclib", "FRAGMENT")
        >>> lib.define("triple(Tensor x) -> Tensor")
        'triple'
        >>> lib.impl("triple", lambda x: x * 3, "CPU")
        >>> torch.ops.doclib.triple(torch.tensor([1.0]))
        tensor([3.])
    """

    def __init__(self, ns: str, kind: str, dispatch_key: str = "") -> None:
        if kind not in ("IMPL", "DEF", "FRAGMENT"):
            raise ValueError(f"Unsupported kind: {kind}")
        self.ns = ns
        self.kind = kind
        self.dispatch_key = dispatch_key
        self._op_defs: set[str] = set()

    def __repr__(self) -> str:
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def define(self, schema: str, alias_analysis: str = "", *, tags: Any = ()) -> str:
        """Define the operator ``name(args) -> returns`` in this namespace; returns its name."""
        name = schema.split("(", 1)[0].strip()
        ns, _, opname = name.rpartition("::")
        ns = ns or self.ns
        op = CustomOpDef(ns, opname.split(".")[0], "(" + schema.split("(", 1)[1], None)
        _op_registry.register(op._qualname, op)
        self._op_defs.add(op._qualname)
        return opname.split(".")[0]

    def impl(self, op_name: Any, fn: Callable, dispatch_key: str = "", *, with_keyset: bool = False,
             allow_override: bool = True) -> None:
        """Register ``fn`` for the operator under ``dispatch_key`` (``"CPU"``, ``"CUDA"``,
        ``"CompositeExplicitAutograd"``, ``"CompositeImplicitAutograd"``, ``"Autograd"``, ``"Meta"``)."""
        if isinstance(op_name, str) and "::" not in op_name:
            op_name = f"{self.ns}::{op_name.split('.')[0]}"
        _impl_key(_op_of(op_name), dispatch_key or self.dispatch_key or "CompositeImplicitAutograd", fn)

    def _destroy(self) -> None:
        for q in self._op_defs:
            _op_registry.unregister(q)
        self._op_defs.clear()


def _impl_key(op: CustomOpDef, key: str, fn: Callable) -> None:
    if key in _DIRECT_KEYS:
        op._direct = fn
    elif key == "Meta":
        op._abstract_fn = fn
    elif key in ("CompositeExplicitAutograd", "default", "Default"):
        op._kernels[None] = fn
    else:
        op._kernels[key.lower()] = fn
        op._kernels.setdefault(None, fn) if key.lower() == "cpu" else None


_LIBS: dict[str, Library] = {}


def define(qualname: str, schema: str, *, lib: Library | None = None, tags: Any = ()) -> None:
    """Define the operator ``ns::name`` with the schema ``"(args) -> returns"``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.library.define("doclib::halve", "(Tensor x) -> Tensor")
        >>> _ = torch.library.impl("doclib::halve", "cpu", lambda x: x / 2)
        >>> torch.ops.doclib.halve(torch.tensor([4.0]))
        tensor([2.])
    """
    ns, name = _split_name(qualname)
    lib = lib or _LIBS.setdefault(ns, Library(ns, "FRAGMENT"))
    lib.define(name + schema, tags=tags)


def impl(qualname: str, types: str | _abc.Sequence[str], func: Callable | None = None, *,
         lib: Library | None = None) -> object:
    """Register ``func`` as the kernel of ``qualname`` for device ``types`` (``"cpu"``,
    ``"cuda"``, ``"default"``) or a dispatch key (``"CompositeImplicitAutograd"``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.library.define("doclib::dbl", "(Tensor x) -> Tensor")
        >>> @torch.library.impl("doclib::dbl", "cpu")
        ... def _(x):
        ...     return x * 2
        >>> torch.ops.doclib.dbl(torch.tensor([4.0]))
        tensor([8.])
    """
    def inner(f):
        op = _op_of(qualname)
        for t in [types] if isinstance(types, str) else types:
            _impl_key(op, {"cpu": "CPU", "cuda": "CUDA"}.get(t, t), f)
        return f
    return inner if func is None else inner(func)


# -- opcheck -------------------------------------------------------------------------------------

_TESTS = ("test_schema", "test_autograd_registration", "test_faketensor", "test_aot_dispatch_dynamic")


def _clone_tree(v):
    if isinstance(v, Tensor):
        return v.detach().clone().requires_grad_(v.requires_grad)
    if isinstance(v, (list, tuple)):
        return type(v)(_clone_tree(x) for x in v)
    if isinstance(v, dict):
        return {k: _clone_tree(x) for k, x in v.items()}
    return copy.copy(v)


def _same(a: Tensor, b: Tensor) -> bool:
    return np.array_equal(np.asarray(a.detach().numpy()), np.asarray(b.detach().numpy()), equal_nan=True)


def _test_schema(op, args, kwargs, atol, rtol):
    a, kw = _clone_tree(args), _clone_tree(kwargs)
    before = _clone_tree((a, kw))
    op(*a, **kw)
    bound = op._sig.bind(*a, **kw)
    bound_before = op._sig.bind(*before[0], **before[1])
    for name, v in bound.arguments.items():
        if isinstance(v, Tensor) and not _same(v, bound_before.arguments[name]) and name not in op._mutated:
            raise OpCheckError(f"Argument {name} is not defined as mutable but was mutated")


def _test_faketensor(op, args, kwargs, atol, rtol):
    if op._direct is not None:
        return
    if op._abstract_fn is None:
        raise OpCheckError(f"There was no fake impl registered for {op!r}. This is necessary for "
                           "torch.compile/export/fx tracing to work. Please use "
                           f"`{op._name}.register_fake` to add an fake impl.")
    real = op(*_clone_tree(args), **_clone_tree(kwargs))
    bound = op._sig.bind(*_clone_tree(args), **_clone_tree(kwargs))
    bound.apply_defaults()
    fake, ctx = _run_fake(op._abstract_fn, bound.args, bound.kwargs, tracing=False)
    reals = real if isinstance(real, (tuple, list)) else (real,)
    fakes = fake if isinstance(fake, (tuple, list)) else (fake,)
    if len(reals) != len(fakes):
        raise OpCheckError(f"the fake impl returned {len(fakes)} outputs, the kernel {len(reals)}")
    for i, (r, f) in enumerate(zip(reals, fakes, strict=True)):
        if not isinstance(r, Tensor):
            continue
        shape_ok = r.dim() == f.dim() if ctx.dynamic else tuple(r.shape) == tuple(f.shape)
        if not shape_ok or r.dtype != f.dtype:
            raise OpCheckError(f"output {i}: the fake impl gives shape {tuple(f.shape)} dtype {f.dtype}, the "
                               f"kernel shape {tuple(r.shape)} dtype {r.dtype}")


def _test_aot(op, args, kwargs, atol, rtol):
    """The op traced (torch.func.vjp, the kernel through a host callback) against eager."""
    if op._mutated or op._direct is not None:
        return
    _test_faketensor(op, args, kwargs, atol, rtol)
    a = _clone_tree(args)
    diff = [i for i, v in enumerate(a) if isinstance(v, Tensor) and v.requires_grad]
    eager = op(*a, **kwargs)
    eager_outs = eager if isinstance(eager, tuple) else (eager,)

    def f(*xs):
        full = list(_clone_tree(args))
        for i, x in zip(diff, xs, strict=True):
            full[i] = x
        return op(*full, **kwargs)

    prim = [a[i].detach() for i in diff]
    if diff:
        traced, vjp_fn = torch.func.vjp(f, *prim)
    else:
        traced = op(*_clone_tree(args), **kwargs)
    traced_outs = traced if isinstance(traced, tuple) else (traced,)
    for e, t in zip(eager_outs, traced_outs, strict=True):
        if isinstance(e, Tensor):
            torch.testing.assert_close(t, e.detach(), atol=atol, rtol=rtol)
    if not diff or op._backward_fn is None:
        return
    cts = tuple(torch.ones_like(o) for o in eager_outs if isinstance(o, Tensor))
    g_eager = torch.autograd.grad(eager_outs, [a[i] for i in diff], cts, allow_unused=True)
    g_traced = vjp_fn(cts[0] if len(cts) == 1 else cts)
    for ge, gt in zip(g_eager, g_traced, strict=True):
        if ge is not None:
            torch.testing.assert_close(gt, ge, atol=atol, rtol=rtol)


def opcheck(op: Any, args: tuple[Any, ...], kwargs: dict[str, Any] | None = None, *,
            test_utils: str | _abc.Sequence[str] = _TESTS, raise_exception: bool = True, atol: Any = None,
            rtol: Any = None) -> dict[str, str]:
    """Test a custom operator's registrations on sample inputs: the mutations its schema
    declares (``test_schema``), its autograd registration, its fake implementation against
    the kernel (``test_faketensor``), and the op traced by ``torch.func`` against eager,
    gradients included (``test_aot_dispatch_dynamic``).

    Example::

        >>> import fgrad.torch as torch
        >>> @torch.library.custom_op("doc::plus1", mutates_args=())
        ... def plus1(x: torch.Tensor) -> torch.Tensor:
        ...     return x + 1
        >>> _ = plus1.register_fake(lambda x: torch.empty_like(x))
        >>> torch.library.opcheck(plus1, (torch.zeros(2),))["test_faketensor"]
        'SUCCESS'
    """
    op = _op_of(op)
    kwargs = kwargs or {}
    names = [test_utils] if isinstance(test_utils, str) else list(test_utils)
    for n in names:
        if n not in _TESTS:
            raise ValueError(f"opcheck(op, ...): test_utils is expected to only contain {_TESTS}, "
                             f"but got {n}")
    runners = {"test_schema": _test_schema, "test_autograd_registration": lambda *a: None,
               "test_faketensor": _test_faketensor, "test_aot_dispatch_dynamic": _test_aot}
    results: dict[str, Any] = {}
    for n in names:
        try:
            runners[n](op, args, kwargs, atol, rtol)
            results[n] = "SUCCESS"
        except Exception as exc:
            if raise_exception:
                msg = f"opcheck(op, ...): {n} failed with {exc} (scroll up for stack trace)"
                raise OpCheckError(msg) from exc
            results[n] = exc
    return results
