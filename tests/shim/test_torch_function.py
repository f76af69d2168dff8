"""The ``__torch_function__`` protocol (`fgrad.torch.overrides`): the examples of PyTorch's
"Extending PyTorch" page (ScalarTensor, MetadataTensor, LoggingTensor), subclass preservation
through functions, methods, operators and properties, the dispatch order, the switches and
the errors.  Each scenario runs on ``fgrad.torch`` and is compared with the lines PyTorch 2.13
printed (stored below) and with live PyTorch when it is installed."""

from __future__ import annotations

import functools

import pytest

import fgrad.torch as ft


def scalar_tensor(torch):
    handled = {}

    class ScalarTensor:
        def __init__(self, N, value):
            self._N = N
            self._value = value

        def __repr__(self):
            return f"ScalarTensor(N={self._N}, value={self._value})"

        def tensor(self):
            return self._value * torch.eye(self._N)

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            if kwargs is None:
                kwargs = {}
            if func not in handled or not all(issubclass(t, (torch.Tensor, ScalarTensor)) for t in types):
                return NotImplemented
            return handled[func](*args, **kwargs)

    def implements(torch_function):
        def decorator(func):
            functools.update_wrapper(func, torch_function)
            handled[torch_function] = func
            return func

        return decorator

    @implements(torch.mean)
    def mean(input):
        return float(input._value) / input._N

    def ensure_tensor(data):
        return data.tensor() if isinstance(data, ScalarTensor) else torch.as_tensor(data)

    @implements(torch.add)
    def add(input, other):
        try:
            if input._N == other._N:
                return ScalarTensor(input._N, input._value + other._value)
            raise ValueError("Shape mismatch!")
        except AttributeError:
            return torch.add(ensure_tensor(input), ensure_tensor(other))

    out = [torch.mean(ScalarTensor(5, 2))]
    s = ScalarTensor(2, 2)
    out += [torch.add(s, s), torch.add(s, torch.tensor([[1, 1], [1, 1]]))]
    for call in (lambda: torch.mul(s, 3), lambda: torch.nn.functional.relu(s), lambda: torch.linalg.norm(s)):
        try:
            call()
        except TypeError as e:
            out.append(f"TypeError: {e}")
    out.append(torch.overrides.has_torch_function((s,)))
    out.append(torch.overrides.is_tensor_like(s))
    return out


def metadata_tensor(torch):
    class MetadataTensor:
        def __init__(self, data, metadata=None, **kwargs):
            self._t = torch.as_tensor(data, **kwargs)
            self._metadata = metadata

        def __repr__(self):
            return f"Metadata:\n{self._metadata}\n\ndata:\n{self._t}"

        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            if kwargs is None:
                kwargs = {}
            metadatas = tuple(a._metadata for a in args if hasattr(a, "_metadata"))
            args = [getattr(a, "_t", a) for a in args]
            assert len(metadatas) > 0
            ret = func(*args, **kwargs)
            return MetadataTensor(ret, metadata=metadatas[0])

    m = MetadataTensor([[1, 2], [3, 4]], metadata={"owner": "Ministry of Silly Walks"})
    t = torch.tensor([[1, 2], [1, 2]])
    return [torch.add(t, m), torch.mul(t, m), torch.sum(m, dim=0)]


def logging_tensor(torch):
    calls = []

    class LoggingTensor(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            if func is not torch.Tensor.__repr__:
                calls.append(func.__name__)
            if kwargs is None:
                kwargs = {}
            return super().__torch_function__(func, types, args, kwargs)

    x = torch.ones(2, 3).as_subclass(LoggingTensor)
    y = (x * 2).sum(dim=0) + torch.exp(x)[0]
    out = [type(y).__name__, y, list(calls)]
    calls.clear()
    _ = x.shape, x.dtype, x[0, 1]
    x[0, 0] = 5.0
    out.append(list(calls))
    calls.clear()
    out += [type(torch.nn.functional.relu(x)).__name__, list(calls), repr(x)]
    return out


def subclass_preserved(torch):
    class Sub(torch.Tensor):
        pass

    a = torch.ones(2).as_subclass(Sub)
    out = [type(v).__name__ for v in (a + 1, 1 + a, torch.ones(2) + a, a.t(), a.data, a.detach(), a.clone(),
                                      a[0], torch.stack([a, a]), a.sum(), torch.sin(a), a.to(torch.float64))]
    mx = torch.max(a, 0)
    out += [type(mx).__name__, type(mx.values).__name__, type(a.split(1)).__name__,
            type(a.split(1)[0]).__name__, type(a.tolist()).__name__, type(a.shape).__name__,
            isinstance(a, torch.Tensor), torch.is_tensor(a)]
    with torch._C.DisableTorchFunctionSubclass():
        out += [type(a + 1).__name__, type(torch.sin(a)).__name__]
    with torch._C.DisableTorchFunction():
        out += [type(a * 2).__name__, torch._C._is_torch_function_enabled()]
    out.append(torch._C._is_torch_function_enabled())
    p = torch.nn.Parameter(torch.ones(2))
    out += [type(p * 2).__name__, type(torch.sin(p)).__name__, torch.overrides.has_torch_function_unary(p),
            torch.overrides.has_torch_function((a,)), torch.overrides.has_torch_function((torch.ones(1), 2))]
    return out


def subclass_autograd(torch):
    class Sub(torch.Tensor):
        pass

    b = torch.ones(2).as_subclass(Sub).requires_grad_()
    c = (b * 3).sum()
    out = [type(c).__name__, type(c.grad_fn).__name__]
    c.backward()
    out += [type(b.grad).__name__, b.grad]
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.as_subclass(Sub)
    out += [type(y.grad_fn).__name__, y.is_leaf, y.requires_grad]
    (y * y).sum().backward()
    out.append(x.grad)
    return out


def module_and_grad(torch):
    class Sub(torch.Tensor):
        pass

    torch.manual_seed(0)
    m = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
    xs = torch.randn(5, 3).as_subclass(Sub).requires_grad_()
    y = m(xs)
    out = [type(y).__name__, type(y.grad_fn).__name__, type(torch.nn.functional.softmax(xs, -1)).__name__]
    y.sum().backward()
    return out + [type(xs.grad).__name__, round(xs.grad.sum().item(), 4),
                  round(m[0].weight.grad.sum().item(), 4)]


def dispatch_order(torch):
    class A(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return "A"

    class B(A):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return "B"

    class NI(torch.Tensor):
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return NotImplemented

    aa, bb = torch.ones(1).as_subclass(A), torch.ones(1).as_subclass(B)
    out = [torch.add(aa, bb), torch.add(bb, aa), aa + bb, aa.add(bb), torch.sin(aa), torch.cat([aa, bb])]
    ni = torch.ones(1).as_subclass(NI)
    for call in (lambda: torch.sin(ni), lambda: ni.add(1), lambda: ni + 1, lambda: ni.shape):
        try:
            call()
        except TypeError as e:
            out.append(f"TypeError: {e}")
    return out


def python_functions(torch):
    def double(x):
        if torch.overrides.has_torch_function_unary(x):
            return torch.overrides.handle_torch_function(double, (x,), x)
        return 2 * x

    class Catch:
        @classmethod
        def __torch_function__(cls, func, types, args=(), kwargs=None):
            return (func.__name__, [t.__name__ for t in types], len(args))

    return [double(Catch()), double(torch.ones(1)), double(3),
            torch.Tensor.grad.__get__ in torch.overrides.get_default_nowrap_functions(),
            torch.overrides.is_tensor_method_or_property(torch.Tensor.add),
            torch.overrides.is_tensor_like(torch.ones(1)), torch.overrides.is_tensor_like(1.0)]


def _multi(func, cls):
    """PyTorch's message when every ``__torch_function__`` returned ``NotImplemented``."""
    return (f"TypeError: Multiple dispatch failed for '{func}'; all __torch_function__ handlers returned "
            f"NotImplemented:\n\n  - tensor subclass <class 'SCOPE.{cls}'>\n\nFor more information, try "
            "re-running with TORCH_LOGS=not_implemented")


def function_modes(torch):
    """``TorchFunctionMode``: handlers that see every call in their block (PyTorch's mode stack)."""
    Mode = torch.overrides.TorchFunctionMode
    out = []

    class Log(Mode):
        def __init__(self, tag="", log=None):
            super().__init__()
            self.tag, self.log = tag, [] if log is None else log

        def __torch_function__(self, func, types, args=(), kwargs=None):
            own = getattr(torch.Tensor, func.__name__, None) is func
            self.log.append(f"{self.tag}{func.__name__}{'*' if own else ''}{[t.__name__ for t in types]}")
            return func(*args, **(kwargs or {}))

    x = torch.ones(2, requires_grad=True)
    with Log() as m:
        y = torch.relu(x) + 1
        (y * 2.0).sum().backward()
        _ = x.shape, x[0], 1 - x, torch.cat([x, x]), torch.nn.functional.gelu(x), torch.tensor([1.0])
    out += [m.log, x.grad, type(y).__name__]

    class Sub(torch.Tensor):
        pass

    with Log() as m:
        u = torch.ones(2).as_subclass(Sub) + 1
    out += [type(u).__name__, m.log]

    class OnlyAdd(Mode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            if func is torch.add or func is torch.Tensor.add:
                return "intercepted"
            return NotImplemented

    with OnlyAdd() as mode:
        out += [torch.add(x, 1), x + 1]
        try:
            torch.sub(x, 1)
        except TypeError as e:
            out.append(str(e).replace(repr(mode), "MODE").splitlines()[0])

    log = []
    with Log("outer:", log) as outer, Log("inner:", log) as inner:
        torch.sin(x)
        out.append(torch.overrides._get_current_function_mode_stack() == [outer, inner])
        with torch._C.DisableTorchFunction():
            torch.cos(x)
        with torch._C.DisableTorchFunctionSubclass():
            torch.tan(x)
    out += [log, torch.overrides._get_current_function_mode_stack()]

    class Double(Mode):  # a mode that changes results
        def __torch_function__(self, func, types, args=(), kwargs=None):
            r = func(*args, **(kwargs or {}))
            return r * 2 if func is torch.mul else r

    with Double():
        out.append(torch.mul(torch.tensor([1.0, 2.0]), 3))
    out.append(torch.mul(torch.tensor([1.0, 2.0]), 3))
    return out


SCENARIOS = {f.__name__: f for f in (scalar_tensor, metadata_tensor, logging_tensor, subclass_preserved,
                                     subclass_autograd, module_and_grad, dispatch_order, python_functions,
                                     function_modes)}

TORCH = {  # torch 2.13 (CPU): str() of each scenario's results
    "scalar_tensor": [
        "0.4",
        "ScalarTensor(N=2, value=4)",
        "tensor([[3., 1.],\n        [1., 3.]])",
        _multi("torch.mul", "ScalarTensor"),
        "TypeError: no implementation found for 'torch.nn.functional.relu' on types that implement "
        "__torch_function__: [<class 'SCOPE.ScalarTensor'>]",
        _multi("torch.linalg.linalg_norm", "ScalarTensor"),
        "True",
        "True",
    ],
    "metadata_tensor": [
        "Metadata:\n{'owner': 'Ministry of Silly Walks'}\n\ndata:\ntensor([[2, 4],\n        [4, 6]])",
        "Metadata:\n{'owner': 'Ministry of Silly Walks'}\n\ndata:\ntensor([[1, 4],\n        [3, 8]])",
        "Metadata:\n{'owner': 'Ministry of Silly Walks'}\n\ndata:\ntensor([4, 6])",
    ],
    "logging_tensor": [
        "LoggingTensor",
        "LoggingTensor([6.7183, 6.7183, 6.7183])",
        "['mul', 'sum', 'exp', '__getitem__', 'add']",
        "['__get__', '__get__', '__getitem__', '__setitem__']",
        "LoggingTensor",
        "['relu']",
        "LoggingTensor([[5., 1., 1.],\n               [1., 1., 1.]])",
    ],
    "subclass_preserved": [
        "Sub", "Sub", "Sub", "Sub", "Sub", "Sub", "Sub", "Sub", "Sub", "Sub", "Sub", "Sub",
        "max", "Sub", "tuple", "Sub", "list", "Size", "True", "True",
        "Tensor", "Tensor", "Tensor", "False", "True",
        "Tensor", "Tensor", "False", "True", "False",
    ],
    "subclass_autograd": [
        "Sub", "AliasBackward0", "Tensor", "tensor([3., 3.])",
        "AliasBackward0", "False", "True", "tensor([2., 4.])",
    ],
    "module_and_grad": ["Sub", "AliasBackward0", "Sub", "Tensor", "-0.9612", "-0.5915"],
    "dispatch_order": [
        "B", "B", "B", "B", "A", "B",
        _multi("torch.sin", "NI"),
        _multi("torch.Tensor.add", "NI"),
        "TypeError: unsupported operand type(s) for +: 'NI' and 'int'",
        _multi("torch.Tensor.shape.__get__", "NI"),
    ],
    "python_functions": [
        "('double', ['Catch'], 1)", "tensor([2.])", "6", "True", "True", "True", "False",
    ],
    "function_modes": [
        '[\'relu[]\', \'add*[]\', \'mul*[]\', \'sum*[]\', "backward*[\'Tensor\']", "__get__[\'Tensor\']", '
        '\'__getitem__*[]\', "__rsub__*[\'Tensor\']", \'cat[]\', \'gelu[]\', \'tensor[]\']',
        'tensor([2., 2.])',
        'Tensor',
        'Sub',
        '[\'ones[]\', "add*[\'Sub\']"]',
        'intercepted',
        'intercepted',
        "Multiple dispatch failed for 'torch.sub'; all __torch_function__ handlers returned NotImplemented:",
        'True',
        "['inner:sin[]', 'outer:sin[]', 'inner:tan[]', 'outer:tan[]']",
        '[]',
        'tensor([ 6., 12.])',
        'tensor([3., 6.])',
    ],
}


def _lines(torch, name):
    scope = f"{__name__}.{name}.<locals>"
    return [str(v).replace(scope, "SCOPE") for v in SCENARIOS[name](torch)]


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_matches_stored_torch(name):
    assert _lines(ft, name) == TORCH[name]


@pytest.mark.parametrize("name", list(SCENARIOS))
def test_live_torch(name):
    torch = pytest.importorskip("torch")
    assert _lines(torch, name) == TORCH[name]


def test_subclass_method_override_wins():
    class Own(ft.Tensor):
        def sum(self, *args, **kwargs):  # the subclass's own method is not replaced
            return "own"

    o = ft.ones(2).as_subclass(Own)
    assert o.sum() == "own"
    assert type(o.mean()).__name__ == "Own"


def test_plain_tensors_untouched():
    x = ft.ones(2)
    assert type(x + 1) is ft.Tensor and type(ft.sin(x)) is ft.Tensor
    assert "sum" not in vars(ft.nn.Parameter)  # opted out: no routed methods installed


def test_as_subclass_rejects_non_tensor_class():
    with pytest.raises(TypeError, match="must be a subclass of torch.Tensor"):
        ft.ones(1).as_subclass(int)


def test_modes_leave_plain_tensors_untouched():
    own_add, own_shape = vars(ft.Tensor)["add"], vars(ft.Tensor)["shape"]

    class Pass(ft.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return func(*args, **(kwargs or {}))

    with pytest.raises(ZeroDivisionError):
        with Pass():
            assert vars(ft.Tensor)["add"] is not own_add  # routed while a mode is on
            raise ZeroDivisionError
    assert vars(ft.Tensor)["add"] is own_add and vars(ft.Tensor)["shape"] is own_shape
    assert ft.overrides._get_current_function_mode_stack() == []


def test_modes_are_per_thread():
    import threading

    seen = []

    class Log(ft.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func.__name__)
            return func(*args, **(kwargs or {}))

    other = []
    with Log():
        t = threading.Thread(target=lambda: other.append((ft.ones(2) + 1).sum().item()))
        t.start()
        t.join()
        ft.sin(ft.ones(1))
    assert other == [4.0] and seen == ["ones", "sin"]  # the other thread's calls are not the mode's
