"""``torch.jit`` for programs that use TorchScript's decorators and queries on the CPU:
`script` and `trace` return the function or module itself (fgrad runs Python eagerly; for
compilation use ``torch.compile``), `is_scripting`/`is_tracing` are False, and `ignore`,
`unused`, `export`, `interface`, `Final`, `annotate`, `fork`/`wait` behave as under eager
PyTorch.  Saving TorchScript archives is not supported: `save`/`load` raise and say to save
the ``state_dict`` instead.

Example::

    >>> import fgrad.torch as torch
    >>> @torch.jit.script
    ... def f(x):
    ...     return x * 2
    >>> f(torch.tensor([1.0]))
    tensor([2.])
    >>> torch.jit.is_scripting()
    False
"""

from __future__ import annotations

from typing import Any, Callable, Final, TypeVar

__all__ = [
    "Final",
    "Future",
    "ScriptFunction",
    "ScriptModule",
    "annotate",
    "export",
    "fork",
    "freeze",
    "ignore",
    "interface",
    "is_scripting",
    "is_tracing",
    "load",
    "optimize_for_inference",
    "save",
    "script",
    "script_if_tracing",
    "trace",
    "trace_module",
    "unused",
    "wait",
]

F = TypeVar("F", bound=Callable[..., Any])


class ScriptModule:
    """The type TorchScript gives scripted modules (``isinstance`` checks; fgrad never makes one).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.nn.Linear(1, 1), torch.jit.ScriptModule)
        False
    """


class ScriptFunction:
    """The type TorchScript gives scripted functions (``isinstance`` checks; fgrad never makes one).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(lambda x: x, torch.jit.ScriptFunction)
        False
    """


def script(
    obj: Any = None, optimize: Any = None, _frames_up: int = 0, _rcb: Any = None, example_inputs: Any = None
) -> Any:
    """``obj`` itself: fgrad runs Python functions and modules eagerly.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Linear(2, 2)
        >>> torch.jit.script(m) is m
        True
    """
    return obj


def trace(
    func: Any,
    example_inputs: Any = None,
    optimize: Any = None,
    check_trace: bool = True,
    check_inputs: Any = None,
    check_tolerance: float = 1e-5,
    strict: bool = True,
    _force_outplace: bool = False,
    _module_class: Any = None,
    _compilation_unit: Any = None,
    example_kwarg_inputs: Any = None,
    _store_inputs: bool = True,
) -> Any:
    """``func`` itself, after running it once on ``example_inputs`` (as tracing does, so errors
    surface at the same place).

    Example::

        >>> import fgrad.torch as torch
        >>> f = torch.jit.trace(lambda x: x + 1, torch.zeros(1))
        >>> f(torch.ones(1))
        tensor([2.])
    """
    if example_kwarg_inputs is not None:
        func(**example_kwarg_inputs)
    elif example_inputs is not None:
        func(*(example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)))
    return func


def trace_module(mod: Any, inputs: dict, optimize: Any = None, check_trace: bool = True,
                 check_inputs: Any = None, check_tolerance: float = 1e-05, strict: bool = True,
                 _force_outplace: bool = False, _module_class: Any = None, _compilation_unit: Any = None,
                 example_inputs_is_kwarg: bool = False, _store_inputs: bool = True) -> Any:
    """``mod`` itself, after running each named method on its example inputs.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Linear(2, 1)
        >>> torch.jit.trace_module(m, {"forward": torch.zeros(1, 2)}) is m
        True
    """
    for name, args in inputs.items():
        if example_inputs_is_kwarg:
            getattr(mod, name)(**args)
        else:
            getattr(mod, name)(*(args if isinstance(args, tuple) else (args,)))
    return mod


def script_if_tracing(fn: F) -> F:
    """``fn`` itself.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.script_if_tracing(abs)(-1)
        1
    """
    return fn


def is_scripting() -> bool:
    """False: fgrad does not compile TorchScript.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.is_scripting()
        False
    """
    return False


def is_tracing() -> bool:
    """False: fgrad does not trace TorchScript.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.is_tracing()
        False
    """
    return False


def ignore(drop: Any = False, **kwargs: Any) -> Any:
    """The decorator TorchScript uses to leave a function in Python: here a no-op (usable bare
    or called).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.ignore(len)([1, 2])
        2
    """
    if callable(drop):
        return drop
    return lambda fn: fn


def unused(fn: F) -> F:
    """A no-op decorator (TorchScript skips compiling ``fn``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.unused(len)([1])
        1
    """
    return fn


def export(fn: F) -> F:
    """A no-op decorator (TorchScript compiles ``fn`` as an entry point).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.export(len)([1])
        1
    """
    return fn


def interface(obj: F) -> F:
    """A no-op class decorator.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.interface(int) is int
        True
    """
    return obj


def annotate(the_type: Any, the_value: Any) -> Any:
    """``the_value`` (TorchScript reads ``the_type``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.annotate(list, [])
        []
    """
    return the_value


class Future:
    """A completed future holding a value (`fork` runs its function at once).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.wait(torch.jit.fork(abs, -2))
        2
    """

    def __init__(self, value: Any) -> None:
        self._value = value

    def wait(self) -> Any:
        return self._value

    def value(self) -> Any:
        return self._value

    def done(self) -> bool:
        return True


def fork(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Future:
    """Run ``func(*args, **kwargs)`` now; return a `Future` holding its result.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.fork(max, 1, 2).wait()
        2
    """
    return Future(func(*args, **kwargs))


def wait(future: Future) -> Any:
    """The value of ``future``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.wait(torch.jit.fork(min, 1, 2))
        1
    """
    return future.wait()


def freeze(mod: Any, preserved_attrs: Any = None, optimize_numerics: bool = True) -> Any:
    """``mod`` itself.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Linear(1, 1)
        >>> torch.jit.freeze(m) is m
        True
    """
    return mod


def optimize_for_inference(mod: Any, other_methods: Any = None) -> Any:
    """``mod`` itself.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Linear(1, 1)
        >>> torch.jit.optimize_for_inference(m) is m
        True
    """
    return mod


def _no_archives(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"torch.jit.{name}: fgrad does not read or write TorchScript archives; save the weights with "
        "torch.save(model.state_dict(), path) and load them into the model class with "
        "model.load_state_dict(torch.load(path))"
    )


def save(m: Any, f: Any, _extra_files: Any = None) -> None:
    """Not supported (TorchScript archives): raises NotImplementedError saying what to do.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.save(torch.nn.Linear(1, 1), "m.pt")
        Traceback (most recent call last):
        ...
        NotImplementedError: torch.jit.save: fgrad does not read or write TorchScript archives; ...
    """
    raise _no_archives("save")


def load(
    f: Any, map_location: Any = None, _extra_files: Any = None, _restore_shapes: bool = False, **kwargs: Any
) -> Any:
    """Not supported (TorchScript archives): raises NotImplementedError saying what to do.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.jit.load("m.pt")
        Traceback (most recent call last):
        ...
        NotImplementedError: torch.jit.load: fgrad does not read or write TorchScript archives; ...
    """
    raise _no_archives("load")
