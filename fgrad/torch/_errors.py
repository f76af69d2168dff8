"""PyTorch's exception types for errors raised deep inside an op.

The shim validates its arguments where PyTorch does and raises PyTorch's messages.  What
slips past those checks fails inside NumPy (a ``ValueError`` about broadcasting, an
``IndexError`` from a gather, ``numpy.linalg.LinAlgError``...).  PyTorch users catch
``RuntimeError``, so the shim's dispatch (`_dispatch.apply_op`, the funnel every recorded op goes
through) hands such an exception to `translate`, which returns the ``RuntimeError`` (or
`LinAlgError`, a ``RuntimeError`` as in PyTorch) to raise instead: it names the op, the
inputs' shapes and dtypes and, where there is one, the fix.  The original exception stays
attached as ``__cause__``.

Example::

    >>> import fgrad.torch as torch
    >>> try:
    ...     torch.linalg.solve(torch.zeros(2, 2), torch.ones(2))
    ... except torch.linalg.LinAlgError as e:
    ...     print(str(e).split(":")[0])
    linalg.solve
"""

from __future__ import annotations

import functools
import inspect
import re

import numpy as np

from ._device import _state as _DEV_STATE
from ._meta import requested as _meta_requested
from .overrides import _ACTIVE, _PLAIN, _active_modes, dispatch_call, overloaded_arg

__all__ = ["LinAlgError", "TRANSLATED", "translate", "op_name", "describe_inputs", "public",
           "wrap_public_functions"]


class LinAlgError(RuntimeError):
    """A linear-algebra op failed on its input (singular or not positive-definite matrix):
    ``torch.linalg.LinAlgError``, a subclass of ``RuntimeError``.

    Example::

        >>> import fgrad.torch as torch
        >>> try:
        ...     torch.linalg.inv(torch.zeros(2, 2))
        ... except torch.linalg.LinAlgError:
        ...     print('singular')
        singular
    """


# the exception types NumPy (and the core's shape checks) raise from inside an op's
# computation.  A plain IndexError is left alone: PyTorch raises IndexError for indexing out
# of range too, and the shim raises it deliberately there; an out-of-range axis (NumPy's
# AxisError, also an IndexError) becomes PyTorch's "Dimension out of range" IndexError.
TRANSLATED = (ValueError, TypeError, ArithmeticError, np.linalg.LinAlgError, np.exceptions.AxisError)

_BACKWARD_SUFFIX = re.compile(r"Backward\d*$")


def op_name(gname: str) -> str:
    """The op's PyTorch name from its ``grad_fn`` name.

    >>> op_name("IndexAddBackward0"), op_name("LinalgSolveExBackward0")
    ('index_add', 'linalg.solve')
    """
    base = _BACKWARD_SUFFIX.sub("", gname)
    name = re.sub(r"(?<!^)(?=[A-Z])", "_", base).lower() or gname
    if name.startswith("linalg_"):
        name = "linalg." + name[len("linalg_"):]
        if name.endswith("_ex"):  # linalg.inv_ex, linalg.solve_ex...: the user called linalg.inv/solve
            name = name[: -len("_ex")]
    return name


def describe_inputs(args) -> str:
    """``'Tensor[2, 3] float32, Tensor[4] int64'`` for an op's tensor/array arguments.

    >>> describe_inputs([np.zeros((2, 3), np.float32)])
    'Tensor[2, 3] float32'
    """
    parts = []
    for a in args:
        b = getattr(a, "_buf", a)
        shape, dtype = getattr(b, "shape", None), getattr(b, "dtype", None)
        if shape is None or dtype is None:
            parts.append(type(a).__name__)
        else:
            parts.append(f"Tensor{list(shape)} {np.dtype(dtype).name}")
    return ", ".join(parts)


def _broadcast_mismatch(shapes):
    """PyTorch's message for the first pair of shapes that do not broadcast, or None."""
    for i in range(len(shapes)):
        for j in range(i + 1, len(shapes)):
            s1, s2 = shapes[i], shapes[j]
            n = max(len(s1), len(s2))
            p1 = (1,) * (n - len(s1)) + tuple(s1)
            p2 = (1,) * (n - len(s2)) + tuple(s2)
            for k in range(n - 1, -1, -1):
                if p1[k] != p2[k] and p1[k] != 1 and p2[k] != 1:
                    return (f"The size of tensor a ({p1[k]}) must match the size of tensor b ({p2[k]}) at "
                            f"non-singleton dimension {k}")
    return None


def translate(exc: BaseException, gname: str, args) -> BaseException:
    """The PyTorch-typed exception to raise for ``exc``, raised while computing the op whose
    ``grad_fn`` name is ``gname`` on ``args``.

    >>> e = translate(ValueError("bad"), "WhereBackward0", [np.zeros(2)])
    >>> type(e).__name__, str(e)
    ('RuntimeError', 'where: bad (inputs: Tensor[2] float64)')
    """
    op = op_name(gname)
    inputs = describe_inputs(args)
    msg = str(exc).strip() or type(exc).__name__
    if msg.startswith(op + ": "):  # fgrad's own message already names the op
        msg = msg[len(op) + 2:]
    if isinstance(exc, np.exceptions.AxisError):
        return IndexError(f"{op}: Dimension out of range ({msg}; inputs: {inputs})")
    if isinstance(exc, np.linalg.LinAlgError) and ("dimension" in msg or "square" in msg):
        return RuntimeError(f"{op}: {msg} (inputs: {inputs})")  # a shape error, not a numerical one
    if isinstance(exc, np.linalg.LinAlgError):
        return LinAlgError(
            f"{op}: {msg} (inputs: {inputs}). The matrix is singular or not positive-definite: "
            f"check the input, or use linalg.pinv/linalg.lstsq, or add a small multiple of the identity"
        )
    if isinstance(exc, ValueError) and "broadcast" in msg:
        shapes = [tuple(getattr(getattr(a, "_buf", a), "shape", ())) for a in args]
        torch_msg = _broadcast_mismatch(shapes)
        if torch_msg is not None:
            return RuntimeError(
                f"{torch_msg} ({op}: inputs {inputs}; make the shapes broadcastable, e.g. with "
                f"unsqueeze/expand, or fix the input)"
            )
    return RuntimeError(f"{op}: {msg} (inputs: {inputs})")


def _wrong_argument(fn, name: str, args, kwargs, exc: AttributeError):
    """PyTorch's TypeError if ``exc`` says one of the caller's own arguments is not a Tensor
    (the op read a Tensor attribute of it), else None."""
    obj = getattr(exc, "obj", None)
    if obj is None or isinstance(obj, type):
        return None
    params = None
    try:
        params = list(inspect.signature(fn).parameters)
    except (TypeError, ValueError):
        params = []
    for i, a in enumerate(args):
        if a is obj:
            pname = params[i] if i < len(params) else f"#{i + 1}"
            return TypeError(f"{name}(): argument '{pname}' (position {i + 1}) must be Tensor, not "
                             f"{type(obj).__name__}")
    for k, a in kwargs.items():
        if a is obj:
            return TypeError(f"{name}(): argument '{k}' must be Tensor, not {type(obj).__name__}")
    return None


# NumPy's keyword names PyTorch's argument parser takes for its own (``x.sum(axis=1)``)
_NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim", "x1": "input", "x2": "other"}


# code objects of argument-checking wrappers that only check, then call the function they wrap:
# a binding TypeError raised in their frame is the wrapped function's own (`binding_wrapper`)
_BINDING_WRAPPER_CODES: set = set()


def binding_wrapper(wrapper):
    """Mark ``wrapper`` (a function that checks its arguments and then calls the function it
    wraps with them unchanged) so that `numpy_keywords` reads an "unexpected keyword argument"
    raised in its frame as the wrapped call's binding error; returns ``wrapper``.

    >>> def f(x, dim=None):
    ...     return dim
    >>> @binding_wrapper
    ... def checked(*args, **kwargs):
    ...     return f(*args, **kwargs)
    >>> try:
    ...     checked(1, axis=0)
    ... except TypeError as e:
    ...     numpy_keywords(checked, (1,), {"axis": 0}, e)
    0
    """
    _BINDING_WRAPPER_CODES.add(wrapper.__code__)
    return wrapper


def numpy_keywords(fn, args, kwargs, exc: TypeError):
    """Call ``fn`` again with NumPy's keyword names (``axis``, ``keepdims``, ``x1``, ``x2``) read
    as PyTorch's (``dim``, ``keepdim``, ``input``, ``other``) when ``exc`` is the call's own
    "unexpected keyword argument" for one of them (raised binding the call, before ``fn`` ran);
    re-raise ``exc`` otherwise.

    >>> import fgrad.torch as torch
    >>> torch.sum(torch.ones(2, 3), axis=1, keepdims=True).shape
    torch.Size([2, 1])
    """
    if not kwargs:
        raise exc
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    bad = next((k for k in kwargs if k in _NUMPY_NAMES and f"keyword argument '{k}'" in str(exc)), None)
    code = None if tb is None else tb.tb_frame.f_code
    own = code is None or code is not getattr(fn, "__code__", None) or code in _BINDING_WRAPPER_CODES
    if bad is None or not own or _NUMPY_NAMES[bad] in kwargs:
        raise exc
    renamed = {_NUMPY_NAMES.get(k, k): v for k, v in kwargs.items()}
    try:
        return fn(*args, **renamed)
    except TypeError as again:
        if "unexpected keyword argument" in str(again):
            raise exc from None
        raise


def accepts_numpy_keywords(fn):
    """``fn`` (a Tensor method) that also takes NumPy's keyword names (see `numpy_keywords`);
    no cost beyond one call unless a keyword is refused.

    >>> import fgrad.torch as torch
    >>> torch.ones(2, 3).mean(axis=0)
    tensor([1., 1., 1.])
    """

    @functools.wraps(fn)
    def method(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            return numpy_keywords(fn, args, kwargs, e)

    return method


def public(fn, name: str | None = None, qualname: str | None = None):
    """``fn`` as a public entry point: an argument that is not a Tensor where the op needs one
    raises PyTorch's ``TypeError`` naming the argument, instead of an ``AttributeError`` from
    inside.  No cost unless an exception is raised.

    >>> import fgrad.torch as torch
    >>> try:
    ...     torch.relu("x")
    ... except TypeError as e:
    ...     print(e)
    relu(): argument 'input' (position 1) must be Tensor, not str
    """
    op = name or fn.__name__
    face: list = []  # the function callers hold (handed to __torch_function__ handlers)

    @functools.wraps(fn)
    def entry(*args, **kwargs):
        # the __torch_function__ protocol: a mode, or an argument of a type that is not plain,
        # may take over
        if _ACTIVE and _active_modes():
            return dispatch_call(face[0], args, kwargs)
        for a in args:
            if type(a) not in _PLAIN and overloaded_arg(a):
                return dispatch_call(face[0], args, kwargs)
        if kwargs:
            for a in kwargs.values():
                if type(a) not in _PLAIN and overloaded_arg(a):
                    return dispatch_call(face[0], args, kwargs)
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            return numpy_keywords(fn, args, kwargs, e)
        except AttributeError as e:
            wrong = _wrong_argument(fn, op, args, kwargs, e)
            if wrong is None:
                raise
            raise wrong from None

    if _input_out_only(fn):
        entry = _unary_entry(fn, op, entry)
    elif getattr(fn, "__fgrad_factory__", None) is not None:
        entry = _factory_entry(fn, op, entry)
    face.append(entry)
    entry.__fgrad_public__ = True
    entry.__fgrad_torch_name__ = qualname or f"torch.{op}"
    return entry


_NO_INPUT = object()  # no positional argument


def _input_out_only(fn) -> bool:
    """Whether ``fn``'s signature is exactly ``(input, *, out=None)`` (the unary ops)."""
    code = getattr(fn, "__code__", None)
    return (code is not None and code.co_argcount == 1 and code.co_kwonlyargcount == 1
            and not code.co_flags & (inspect.CO_VARARGS | inspect.CO_VARKEYWORDS)
            and code.co_varnames[1] == "out" and fn.__kwdefaults__ == {"out": None}
            and not fn.__defaults__)


def _unary_entry(fn, op: str, general):
    """`public`'s entry for ``fn(input, *, out=None)``: a call with one positional argument
    and no keyword (a unary op in a loop) is checked and made here, with the protocol checks
    and errors of ``general`` (the general entry) but without packing and unpacking
    ``*args, **kwargs`` through it; every other call (``out=``, ``input=``, wrong arguments)
    goes to ``general`` as it was made.  A unary op on a small Tensor costs about a
    microsecond; the general entry added a quarter."""

    @functools.wraps(fn)
    def entry(input=_NO_INPUT, /, *args, **kwargs):
        if args or kwargs or input is _NO_INPUT:
            return general(*args, **kwargs) if input is _NO_INPUT else general(input, *args, **kwargs)
        if (_ACTIVE and _active_modes()) or (type(input) not in _PLAIN and overloaded_arg(input)):
            return dispatch_call(entry, (input,), kwargs)
        try:
            return fn(input)
        except AttributeError as e:
            wrong = _wrong_argument(fn, op, (input,), kwargs, e)
            if wrong is None:
                raise
            raise wrong from None

    return entry


_FACTORY_KEYWORDS = frozenset(("dtype", "requires_grad", "device"))  # what `_factory_entry` takes itself


def _factory_entry(fn, op: str, general):
    """`public`'s entry for a creation function (``fn`` made by `_meta.factory`): a call with
    plain arguments (numbers, tuples of ints), no keyword but ``dtype``/``requires_grad``/a
    ``device`` that is not "meta", no ``__torch_function__`` mode entered and no "meta" default
    device (``zeros(4)``, ``rand(2, 3)``, ``zeros(n, device=x.device)`` in a loop) runs the
    creation function itself here, without the protocol's per-argument calls and the "meta"
    wrapper (which, on such a call, only calls it); every other call goes to ``general`` (the
    general entry) as it was made.
    The same errors: a TypeError is the call's own (no NumPy keyword to rename), an
    AttributeError becomes `general`'s TypeError."""
    raw = fn.__fgrad_factory__

    @functools.wraps(fn)
    def entry(*args, **kwargs):
        if _ACTIVE or _DEV_STATE.get("meta", False) or (kwargs and not _FACTORY_KEYWORDS.issuperset(kwargs)):
            return general(*args, **kwargs)
        for a in args:
            ta = type(a)
            if ta not in _PLAIN and (ta is not tuple or not _PLAIN.issuperset(map(type, a))):
                return general(*args, **kwargs)
        if kwargs:
            for a in kwargs.values():
                if type(a) not in _PLAIN:
                    return general(*args, **kwargs)
            if "device" in kwargs and _meta_requested(kwargs["device"]):
                return general(*args, **kwargs)
        try:
            return raw(*args, **kwargs)
        except AttributeError as e:
            wrong = _wrong_argument(fn, op, args, kwargs, e)
            if wrong is None:
                raise
            raise wrong from None

    return entry


def wrap_public_functions(namespace: dict, module_prefix: str = "fgrad.torch") -> None:
    """Replace each public function of ``namespace`` defined in fgrad's shim by `public` of it."""
    space = namespace.get("__name__", "fgrad.torch").replace("fgrad.torch", "torch", 1)
    for key, value in list(namespace.items()):
        if (key.startswith("_") or not inspect.isfunction(value) or getattr(value, "__fgrad_public__", False)
                or not getattr(value, "__module__", "").startswith(module_prefix)):
            continue
        prefix = space.rsplit(".", 1)[-1] + "_" if space in ("torch.linalg", "torch.fft") else ""
        namespace[key] = public(value, key, f"{space}.{prefix}{key}")  # PyTorch's native name
