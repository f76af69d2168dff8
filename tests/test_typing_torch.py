"""The PyTorch face's annotations are complete and true.

- Every public function of `fgrad.torch`, `fgrad.torch.nn.functional`, `fgrad.torch.autograd`,
  `fgrad.torch.linalg`, `fgrad.torch.special`, `fgrad.torch.func` and `fgrad.torch.nn.init`,
  every public method of `fgrad.torch.Tensor`, and the main methods of `nn.Module`, the
  optimizers, `autograd.Function` and `utils.data` annotate every parameter and the result,
  and the annotations resolve (a new function without them fails here); so does every other
  public callable of every public module of `fgrad.torch` (nn layers, distributions, amp,
  lr_scheduler, cuda, utils, distributed, sparse, backends, ...), methods and properties of
  its classes included.
- The docstring examples of those functions (the PyTorch-checked ones of ``fgrad/_docs``)
  run with every annotated function and method checked by beartype (jaxtyping shapes
  included): an annotation that one of its calls contradicts fails (a sample by default, all
  with ``-m slow``).
- `fgrad.torch.Tensor` is a jaxtyping array type (``Float[torch.Tensor, "b n"]``) for
  ``isinstance`` and for beartype-checked functions, also under ``torch.func``.
"""

from __future__ import annotations

import doctest
import inspect
import io
import typing
import warnings

import numpy as np
import pytest

import fgrad
import fgrad.torch as torch
import fgrad.torch.autograd
import fgrad.torch.func
import fgrad.torch.linalg
import fgrad.torch.nn.functional as F
import fgrad.torch.nn.init
import fgrad.torch.special
import fgrad.torch.utils.data as data
from fgrad import _docs

jaxtyping = pytest.importorskip("jaxtyping")
pytest.importorskip("beartype")
from beartype import beartype  # noqa: E402
from jaxtyping import Float, Int, Shaped, jaxtyped  # noqa: E402
from test_typing import AnnotationViolation, _checked  # noqa: E402

FUNCTION_MODULES = ("fgrad.torch", "fgrad.torch.nn.functional", "fgrad.torch.autograd", "fgrad.torch.linalg",
                    "fgrad.torch.special", "fgrad.torch.func", "fgrad.torch.nn.init")


def _module(name: str):
    return __import__(name, fromlist=["_"])


def _own_functions(module_name: str) -> dict[str, object]:
    """The public functions of a module that the shim defines (not NumPy's, Python's, or the
    functional core's that leak into `fgrad.torch.func`)."""
    module = _module(module_name)
    return {name: fn for name, fn in _docs.public_functions(module).items()
            if getattr(fn, "__module__", "").startswith("fgrad.torch")}


def _tensor_methods() -> dict[str, object]:
    out = {}
    for name in dir(torch.Tensor):
        if name.startswith("_"):
            continue
        attr = inspect.getattr_static(torch.Tensor, name)
        if inspect.isfunction(attr) and attr.__module__.startswith("fgrad"):
            out[name] = attr
    return out


# the main methods of the classes users subclass or call (`nn.Module`, the optimizers,
# `autograd.Function`, `utils.data`)
OPTIMIZERS = ("SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam", "ASGD",
              "Rprop", "SparseAdam", "LBFGS")
CLASS_METHODS = {
    torch.nn.Module: ("__init__", "forward", "__call__", "parameters", "named_parameters", "buffers",
                      "named_buffers", "children", "named_children", "modules", "named_modules", "train",
                      "eval", "zero_grad", "to", "cpu", "cuda", "double", "float", "half", "state_dict",
                      "load_state_dict", "register_buffer", "register_parameter", "add_module", "apply",
                      "requires_grad_", "register_forward_hook", "register_forward_pre_hook",
                      "register_full_backward_hook", "get_submodule", "get_parameter", "extra_repr"),
    torch.optim.Optimizer: ("__init__", "step", "zero_grad", "state_dict", "load_state_dict",
                            "add_param_group"),
    **{getattr(torch.optim, name): ("__init__", "step") for name in OPTIMIZERS},
    torch.autograd.Function: ("forward", "backward", "apply", "setup_context", "jvp", "vmap"),
    data.Dataset: ("__getitem__", "__add__"),
    data.TensorDataset: ("__init__", "__getitem__", "__len__"),
    data.DataLoader: ("__init__", "__iter__", "__len__"),
}


def _class_methods():
    rows = []
    for cls, names in CLASS_METHODS.items():
        for name in names:
            attr = inspect.getattr_static(cls, name, None)
            if isinstance(attr, (staticmethod, classmethod)):
                attr = attr.__func__
            if attr is not None:
                rows.append((f"{cls.__module__}.{cls.__qualname__}.{name}", attr))
    return rows


def _unannotated(fn, method: bool) -> list[str]:
    """The parameters of ``fn`` without an annotation (``self``/``cls`` of a method aside),
    and ``return`` when the result has none."""
    fn = inspect.unwrap(fn)
    sig = inspect.signature(fn)
    params = list(sig.parameters.values())
    if method and params and params[0].name in ("self", "cls", "ctx"):
        params = params[1:]
    missing = [p.name for p in params if p.annotation is inspect.Parameter.empty]
    if sig.return_annotation is inspect.Signature.empty:
        missing.append("return")
    return missing


def _missing_report(rows, method: bool) -> list[str]:
    out = []
    for qualified, fn in rows:
        missing = _unannotated(fn, method)
        if missing:
            out.append(f"{qualified}: {', '.join(missing)}")
            continue
        try:
            typing.get_type_hints(inspect.unwrap(fn))
        except Exception as e:  # noqa: BLE001 - report every unresolvable annotation at once
            out.append(f"{qualified}: {type(e).__name__}: {e}")
    return out


@pytest.mark.parametrize("module_name", FUNCTION_MODULES)
def test_every_public_function_is_annotated(module_name):
    rows = [(f"{module_name}.{name}", fn) for name, fn in sorted(_own_functions(module_name).items())]
    assert len(rows) >= 5
    bad = _missing_report(rows, method=False)
    assert not bad, f"{len(bad)} functions not (fully) annotated:\n" + "\n".join(bad)


def test_every_tensor_method_is_annotated():
    rows = [(f"Tensor.{name}", fn) for name, fn in sorted(_tensor_methods().items())]
    assert len(rows) > 300
    bad = _missing_report(rows, method=True)
    assert not bad, f"{len(bad)} Tensor methods not (fully) annotated:\n" + "\n".join(bad)


def test_module_optimizer_function_data_methods_are_annotated():
    rows = _class_methods()
    assert len(rows) > 60
    bad = _missing_report(rows, method=True)
    assert not bad, f"{len(bad)} methods not (fully) annotated:\n" + "\n".join(bad)


def _public_objects():
    """``(module name, module, name, object)`` for each public name of each public module of
    `fgrad.torch` (``__all__``, else the names without an underscore) that fgrad.torch defines."""
    import pathlib
    import sys

    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))
    from make_api_index import walk

    for module_name in walk("fgrad.torch"):
        module = sys.modules[module_name]
        names = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
        for name in names:
            obj = getattr(module, name, None)
            if obj is not None and str(getattr(obj, "__module__", "")).startswith("fgrad.torch"):
                yield module_name, module, name, obj


def _every_public_callable() -> list[tuple[str, object, bool]]:
    """``(qualified name, function, is a method)`` for every public function of every public
    module of `fgrad.torch` (``__all__``, else the names without an underscore) and every
    public method, property, ``__init__`` and ``__call__`` of its public classes, the ones
    inherited from fgrad's own base classes included (``Normal.log_prob`` is `_LocScale`'s)."""
    rows, seen = [], set()
    for module_name, _, name, obj in _public_objects():
        if inspect.isclass(obj):
            for klass in obj.__mro__:
                if not klass.__module__.startswith("fgrad.torch"):
                    continue
                for attr, value in vars(klass).items():
                    if attr.startswith("_") and attr not in ("__init__", "__call__"):
                        continue
                    value = value.fget if isinstance(value, property) else value
                    value = value.__func__ if isinstance(value, (staticmethod, classmethod)) else value
                    if (inspect.isfunction(value) and value.__module__.startswith("fgrad")
                            and id(value) not in seen):
                        seen.add(id(value))
                        rows.append((f"{module_name}.{name}.{attr}", value, True))
        elif inspect.isfunction(obj) and id(obj) not in seen:
            seen.add(id(obj))
            rows.append((f"{module_name}.{name}", obj, False))
    return rows


def test_every_public_callable_of_every_torch_module_is_annotated():
    """Not only the modules above: `nn`'s layers (``__init__``, ``forward``), `distributions`
    (constructors, ``sample``/``rsample``/``log_prob``/``entropy``, the properties), `amp`
    (``autocast``, ``GradScaler``), `optim.lr_scheduler`, `cuda`, `utils` (``checkpoint``,
    ``data``'s samplers and collation, ``hooks``), `distributed`, `sparse`, `backends`, ...:
    every public callable of every public module."""
    rows = _every_public_callable()
    assert len(rows) > 1500
    modules = {q.rsplit(".", 2)[0] for q, _, _ in rows} | {q.rsplit(".", 1)[0] for q, _, _ in rows}
    for expected in ("fgrad.torch.distributions", "fgrad.torch.amp", "fgrad.torch.optim.lr_scheduler",
                     "fgrad.torch.cuda", "fgrad.torch.nn", "fgrad.torch.utils.checkpoint"):
        assert expected in modules, expected
    bad = [line for q, fn, method in rows for line in _missing_report([(q, fn)], method=method)]
    assert not bad, f"{len(bad)} public callables not (fully) annotated:\n" + "\n".join(bad)


def test_conjugate_transposes_conjugate():
    """``Tensor.H``/``mH`` (annotated with this change) returned the plain transpose of a complex
    tensor; PyTorch's conjugate it."""
    x = torch.tensor([[1 + 2j, 3 + 0j]])
    assert x.H.tolist() == [[1 - 2j], [3 + 0j]]
    assert torch.ones(2, 1, 2, dtype=torch.complex64).mul(1j).mH.tolist() == [[[-1j], [-1j]]] * 2
    assert torch.ones(2, 3).H.shape == (3, 2)


# -- the annotations hold for the examples' calls ------------------------------------------

def _wrappers():
    """``(owner, name, checked function)`` of every annotated function and Tensor method."""
    by_function: dict[int, object] = {}
    out = []

    def add(owner, name, fn, qualified):
        if id(fn) not in by_function:
            by_function[id(fn)] = _checked(fn, qualified)
        out.append((owner, name, by_function[id(fn)]))

    for module_name in FUNCTION_MODULES:
        for name, fn in _own_functions(module_name).items():
            if getattr(fn, "__annotations__", None):
                add(_module(module_name), name, fn, f"{module_name}.{name}")
    for name, fn in _tensor_methods().items():
        if fn.__annotations__:
            add(torch.Tensor, name, fn, f"Tensor.{name}")
    for cls, names in CLASS_METHODS.items():
        for name in names:
            attr = inspect.getattr_static(cls, name, None)
            if attr is None or name not in vars(cls):
                continue  # (inherited: checked on the class that defines it)
            kind = type(attr) if isinstance(attr, (staticmethod, classmethod)) else None
            fn = attr.__func__ if kind else attr
            if getattr(fn, "__annotations__", None):
                checked = _checked(fn, f"{cls.__qualname__}.{name}")
                out.append((cls, name, kind(checked) if kind else checked))
    out += _every_module_wrappers({id(w) for _, _, w in out} | set(by_function))
    return out


def _every_module_wrappers(done: set[int]) -> list:
    """`_wrappers` for the rest of `_every_public_callable`: the functions of every public module
    and the methods and properties of their classes (each patched where it is defined)."""
    out = []
    for module_name, module, name, obj in _public_objects():
        if inspect.isfunction(obj) and id(obj) not in done and obj.__annotations__:
            done.add(id(obj))
            out.append((module, name, _checked(obj, f"{module_name}.{name}")))
        if not inspect.isclass(obj):
            continue
        for klass in obj.__mro__:
            if (not klass.__module__.startswith("fgrad.torch") or klass is torch.Tensor
                    or id(klass) in done):
                continue
            done.add(id(klass))
            for attr, value in list(vars(klass).items()):
                if attr.startswith("_") and attr not in ("__init__", "__call__"):
                    continue
                if isinstance(value, property) and value.fget is not None and value.fget.__annotations__:
                    checked = _checked(value.fget, f"{klass.__qualname__}.{attr}")
                    out.append((klass, attr, property(checked, value.fset, value.fdel, value.__doc__)))
                    continue
                kind = type(value) if isinstance(value, (staticmethod, classmethod)) else None
                fn = value.__func__ if kind else value
                if (inspect.isfunction(fn) and fn.__module__.startswith("fgrad") and fn.__annotations__
                        and id(fn) not in done):
                    checked = _checked(fn, f"{klass.__qualname__}.{attr}")
                    out.append((klass, attr, kind(checked) if kind else checked))
    return out


WRAPPERS = None


@pytest.fixture
def torch_type_checked(monkeypatch):
    """Every annotated public function and Tensor method of the PyTorch face, and the
    annotated methods of `CLASS_METHODS`, type-checked while the test runs."""
    global WRAPPERS
    if WRAPPERS is None:
        WRAPPERS = _wrappers()
    for owner, name, wrapper in WRAPPERS:
        monkeypatch.setattr(owner, name, wrapper)


def _examples():
    rows = []
    for module_name in (*FUNCTION_MODULES, "fgrad.torch.Tensor"):
        fns = _tensor_methods() if module_name == "fgrad.torch.Tensor" else _own_functions(module_name)
        for name, fn in sorted(fns.items()):
            if ">>>" in (fn.__doc__ or ""):
                rows.append(pytest.param(module_name, name, id=f"{module_name}.{name}"))
    return rows


EXAMPLES = _examples()


def _run_example(module_name: str, name: str) -> str:
    owner = torch.Tensor if module_name == "fgrad.torch.Tensor" else _module(module_name)
    doc = inspect.getdoc(inspect.getattr_static(owner, name)) or ""
    globs = {"torch": torch, "F": F, "np": np, "fgrad": fgrad}
    test = doctest.DocTestParser().get_doctest(doc, globs, f"{module_name}.{name}", None, 0)
    out = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)  # outputs: test_doc_examples' business
    with fgrad.default_device("cpu"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        runner.run(test, out=out.write)
    return out.getvalue()


@pytest.mark.parametrize("module_name,name", EXAMPLES[::9])
def test_torch_examples_satisfy_annotations(torch_type_checked, module_name, name):
    report = _run_example(module_name, name)
    assert "AnnotationViolation" not in report, report


@pytest.mark.slow
@pytest.mark.parametrize("module_name,name", EXAMPLES)
def test_torch_examples_satisfy_annotations_all(torch_type_checked, module_name, name):
    report = _run_example(module_name, name)
    assert "AnnotationViolation" not in report, report


def test_no_annotation_names_a_torch_dtype():
    """In `fgrad.torch`, ``bool``, ``int`` and ``float`` are dtypes (``torch.bool``, ...): an
    annotation ``-> bool`` written there named ``torch.bool``, which no checker understands
    (``get_num_threads -> int``, ``are_deterministic_algorithms_enabled -> bool``,
    ``use_deterministic_algorithms(mode: bool)`` were; they say ``builtins.int``/``bool`` now)."""
    bad = []
    for qualified, fn in [(f"{m}.{n}", f) for m in FUNCTION_MODULES for n, f in _own_functions(m).items()]:
        for name, hint in typing.get_type_hints(inspect.unwrap(fn)).items():
            parts = typing.get_args(hint) or (hint,)
            if any(isinstance(p, torch.dtype) for p in parts):
                bad.append(f"{qualified}({name}): {hint}")
    assert not bad, bad


def test_wrong_annotations_found_by_the_checks_are_fixed(torch_type_checked):
    """Annotations the checked examples contradicted (fixed): ``F.batch_norm``'s running
    statistics may be None (training without them), ``F.pad``'s widths may be a list,
    ``torch.max(x, dim)`` returns ``(values, indices)``, ``torch.pow``'s base may be a number."""
    x = torch.randn(4, 3)
    assert F.batch_norm(x, None, None, training=True).shape == (4, 3)
    assert F.pad(x, [1, 1]).shape == (4, 5)
    values, indices = torch.max(x, 1)
    assert values.shape == indices.shape == (4,)
    assert torch.pow(2, torch.tensor([3.0])).item() == 8.0
    assert torch.get_num_threads() >= 1


def test_shapes_in_the_annotations_are_checked(torch_type_checked):
    """The jaxtyping shapes of the PyTorch face hold for good calls and catch bad ones."""
    x, w = torch.ones(5, 3), torch.ones(4, 3)
    assert F.linear(x, w, torch.zeros(4)).shape == (5, 4)
    assert torch.mm(torch.ones(2, 3), torch.ones(3, 4)).shape == (2, 4)
    assert torch.sin(x).shape == (5, 3)
    assert F.conv2d(torch.ones(1, 2, 5, 5), torch.ones(3, 2, 3, 3), torch.zeros(3)).shape == (1, 3, 3, 3)
    with pytest.raises(AnnotationViolation, match="linear"):
        F.linear(x, w, torch.zeros(7))          # bias of 7 for 4 outputs
    with pytest.raises(AnnotationViolation, match="mm"):
        torch.mm(torch.ones(2, 3), torch.ones(4, 2))
    with pytest.raises(AnnotationViolation, match="conv2d"):
        F.conv2d(torch.ones(1, 2, 5, 5), torch.ones(3, 2, 3, 3), torch.zeros(2))


# -- fgrad.torch.Tensor as a jaxtyping array type ------------------------------------------

def test_tensor_is_a_jaxtyping_array_type():
    x = torch.ones(2, 3)
    assert isinstance(x, Float[torch.Tensor, "b n"])
    assert isinstance(x, Float[torch.Tensor, "2 3"])
    assert not isinstance(x, Float[torch.Tensor, "b"])                    # rank
    assert not isinstance(x, Float[torch.Tensor, "3 2"])                  # sizes
    assert not isinstance(x.long(), Float[torch.Tensor, "b n"])           # dtype category
    assert isinstance(x.long(), Int[torch.Tensor, "b n"])
    assert isinstance(torch.ones(2, dtype=torch.bfloat16), Float[torch.Tensor, " n"])
    assert isinstance(torch.ones(2, dtype=torch.complex64), Shaped[torch.Tensor, " n"])
    assert not isinstance(np.ones((2, 3), np.float32), Float[torch.Tensor, "b n"])  # not a Tensor


@jaxtyped(typechecker=beartype)
def _affine(x: Float[torch.Tensor, "batch features"],
            w: Float[torch.Tensor, "features out"]) -> Float[torch.Tensor, "batch out"]:
    return x @ w


def test_tensor_annotations_are_checked_by_beartype():
    assert _affine(torch.ones(4, 3), torch.ones(3, 2)).shape == (4, 2)
    with pytest.raises(Exception, match="features"):
        _affine(torch.ones(4, 3), torch.ones(5, 2))                        # features 3 and 5
    with pytest.raises(Exception, match="dtype|Float"):
        _affine(torch.ones(4, 3, dtype=torch.int64), torch.ones(3, 2, dtype=torch.int64))


def test_tensor_annotations_hold_under_torch_func():
    """Under ``torch.func.grad``/``vmap`` the function sees Tensors of one example's shape."""
    from fgrad.torch import func

    w = torch.ones(3, 2)
    loss = lambda x: _affine(x, w).sum()  # noqa: E731
    assert func.grad(loss)(torch.ones(4, 3)).shape == (4, 3)
    assert func.vmap(lambda x: _affine(x, w))(torch.ones(5, 4, 3)).shape == (5, 4, 2)
    with pytest.raises(Exception, match="features"):
        func.vmap(lambda x: _affine(x, torch.ones(5, 2)))(torch.ones(5, 4, 3))
