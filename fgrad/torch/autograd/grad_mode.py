"""Grad mode: whether operations on tensors are recorded for autograd.

`no_grad`, `enable_grad`, `set_grad_enabled` and `inference_mode` work as context managers
and as decorators, like PyTorch's.  The flag is thread-local.
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable as _Callable
from typing import Any as _Any

from .._inference import INFERENCE


class _GradState(threading.local):
    def __init__(self) -> None:
        self.enabled = True
        self.inference = False


STATE = _GradState()


def is_grad_enabled() -> bool:
    """Whether autograd records operations right now."""
    return STATE.enabled


def is_inference_mode_enabled() -> bool:
    return STATE.inference


class _DecoratorContextManager:
    """Base for grad-mode context managers that can also decorate functions."""

    def __call__(self, func: _Callable[..., _Any]) -> _Any:
        if inspect.isclass(func):
            raise TypeError(f"{type(self).__name__} can only decorate functions, not classes")
        if inspect.isgeneratorfunction(func):
            ctx_factory = self.clone

            @functools.wraps(func)
            def gen_wrapper(*args, **kwargs):
                gen = func(*args, **kwargs)
                try:
                    with ctx_factory():
                        response = gen.send(None)
                    while True:
                        try:
                            request = yield response
                        except GeneratorExit:
                            with ctx_factory():
                                gen.close()
                            raise
                        except BaseException as e:
                            with ctx_factory():
                                response = gen.throw(e)
                        else:
                            with ctx_factory():
                                response = gen.send(request)
                except StopIteration as e:
                    return e.value

            return gen_wrapper
        ctx_factory = self.clone

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            with ctx_factory():
                return func(*args, **kwargs)

        return wrapper

    def clone(self) -> _Any:
        return type(self)()


class no_grad(_DecoratorContextManager):
    """Disable gradient recording in the block (or the decorated function).

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> with torch.no_grad():
        ...     y = x * 2
        >>> y.requires_grad
        False
    """

    def __init__(self) -> None:
        self.prev = False

    def __enter__(self) -> None:
        self.prev = STATE.enabled
        STATE.enabled = False

    def __exit__(self, *exc) -> None:
        STATE.enabled = self.prev


class enable_grad(_DecoratorContextManager):
    """Enable gradient recording in the block (inside a `no_grad` region).

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1.0], requires_grad=True)
        >>> with torch.no_grad():
        ...     with torch.enable_grad():
        ...         y = x * 2
        ...
        >>> y.requires_grad
        True
    """

    def __init__(self) -> None:
        self.prev = True

    def __enter__(self) -> None:
        self.prev = STATE.enabled
        STATE.enabled = True

    def __exit__(self, *exc) -> None:
        STATE.enabled = self.prev


class set_grad_enabled(_DecoratorContextManager):
    """Set grad mode: takes effect at once (as a function call), or for a ``with`` block
    (restored after it), or for a decorated function.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1.0], requires_grad=True)
        >>> with torch.set_grad_enabled(False):
        ...     y = x * 2
        ...
        >>> y.requires_grad
        False
    """

    def __init__(self, mode: bool) -> None:
        self.prev = STATE.enabled
        self.mode = bool(mode)
        STATE.enabled = self.mode

    def __call__(self, func: _Callable[..., _Any]) -> _Any:
        STATE.enabled = self.prev
        return super().__call__(func)

    def __enter__(self) -> None:
        STATE.enabled = self.mode

    def __exit__(self, *exc) -> None:
        STATE.enabled = self.prev

    def clone(self) -> _Any:
        return set_grad_enabled(self.mode)


class inference_mode(_DecoratorContextManager):
    """Like `no_grad`; tensors made inside are inference tensors (``is_inference()``).

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.inference_mode():
        ...     y = torch.ones(2) * 2
        ...
        >>> y.requires_grad, y.is_inference()
        (False, True)
    """

    def __init__(self, mode: bool = True) -> None:
        self.mode = mode
        self.prev = (True, False)

    def __new__(cls, mode=True):
        if callable(mode) and not isinstance(mode, bool):  # used as @inference_mode
            return cls()(mode)
        return super().__new__(cls)

    def __enter__(self) -> None:
        self.prev = (STATE.enabled, STATE.inference)
        if self.mode:
            STATE.enabled = False
            STATE.inference = True
        else:
            STATE.inference = False
        INFERENCE.on = STATE.inference

    def __exit__(self, *exc) -> None:
        STATE.enabled, STATE.inference = self.prev
        INFERENCE.on = STATE.inference

    def clone(self) -> _Any:
        return type(self)(self.mode)


class set_multithreading_enabled(_DecoratorContextManager):
    """Switch multithreaded backward on or off (a function call, ``with`` block or decorator); fgrad's
    backward runs on one thread, so it changes nothing.

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.autograd.set_multithreading_enabled(False):
        ...     x = torch.tensor([2.0], requires_grad=True)
        ...     (x * x).backward()
        ...
        >>> x.grad
        tensor([4.])
    """
    def __init__(self, mode: bool) -> None:
        self.mode = mode

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        pass

    def clone(self) -> _Any:
        return type(self)(self.mode)
