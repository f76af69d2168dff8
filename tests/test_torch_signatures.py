"""The parameter names and defaults of `fgrad.torch`'s public callables are PyTorch's.

A program ported from PyTorch calls with keywords (``nn.ConstantPad1d(2, value=3.5)``,
``Tensor.split(split_size=2)``, ``torch.func.jvp(..., strict=False)``): a parameter named
differently, missing, or with another default is a porting bug. This test walks every public
module of `fgrad.torch` (``__all__`` or public names), pairs each function, class ``__init__``
and public method that fgrad defines with PyTorch's of the same path (``fgrad.torch.X.n`` and
``torch.X.n``), and compares what Python can see of both signatures (PyTorch's C functions
have none and are skipped):

- every keyword parameter of PyTorch's is accepted by name (or by ``**kwargs``), with an equal
  default where PyTorch has one;
- PyTorch's positional parameters are in the same order;
- fgrad requires no parameter PyTorch does not have.

Live only where PyTorch is installed; `ALLOWED` lists the differences kept, each with why.
"""

from __future__ import annotations

import enum
import functools
import importlib
import inspect
import math
import pathlib
import sys
import warnings

import pytest
from _peers import torch_is_pinned, torch_version_note

torch = pytest.importorskip("torch", reason="compares fgrad.torch's signatures with PyTorch's installed ones")

P = inspect.Parameter

# differences kept on purpose (qualified name -> why)
ALLOWED = {
    **{f"fgrad.torch.{k}Storage.__init__": "fgrad's legacy typed storages are NumPy buffers built from a "
       "size or a sequence; PyTorch's internal wrap_storage/device/dtype keywords have no use there"
       for k in ("Bool", "Byte", "Char", "Double", "Float", "Half", "Int", "Long", "Short")},
    "fgrad.torch.TypedStorage.__init__": "wrap_storage: PyTorch's internal constructor keyword",
    **{f"fgrad.torch.Tensor.{k}": "removed from PyTorch (its method only raises); fgrad's raises the same "
       "RuntimeError with any arguments" for k in ("eig", "lstsq", "solve", "symeig")},
    "fgrad.torch.set_default_tensor_type": "PyTorch's parameter is positional-only (t, /); fgrad's is named "
                                           "tensor_type: positional calls port",
    "fgrad.torch.autograd.NestedIOFunction.forward": "a legacy class; fgrad names the context ctx",
    "fgrad.torch.autograd.NestedIOFunction.backward": "a legacy class; fgrad names the context ctx",
    "fgrad.torch.autograd.graph.RemovableHandle.__init__": "an internal constructor (handles are returned "
                                                           "by the register_* functions, not built by users)",
    "fgrad.torch.multiprocessing.ProcessContext.__init__": "an internal constructor (returned by spawn)",
    **{f"fgrad.torch.nn.{k}.__init__": "activation='relu' and PyTorch's default F.relu select the same "
       "function; fgrad takes both spellings" for k in ("Transformer", "TransformerEncoderLayer",
                                                       "TransformerDecoderLayer")},
    "fgrad.torch.jit.Future.__init__": "fgrad's fork runs at once and returns a completed Future built with "
                                       "its value (PyTorch's takes only devices=)",
    "fgrad.torch.utils.checkpoint.checkpoint": "context_fn=None means PyTorch's noop_context_fn",
    "fgrad.torch.utils.benchmark.Timer.__init__": "timer= defaults to fgrad's benchmark.timer, the same "
                                                  "clock as PyTorch's benchmark.timer (another object)",
    "fgrad.torch.utils.data.random_split": "generator=None means the default generator, PyTorch's default",
}


def _signature(fn):
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


def _same_default(a, b) -> bool:
    if isinstance(a, enum.Enum) or isinstance(b, enum.Enum):
        return repr(a) == repr(b)  # (PyTorch's pybind enums are no `enum.Enum`)
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    try:
        same = a == b
        return (bool(same.all()) if hasattr(same, "all") else bool(same)) or repr(a) == repr(b)
    except Exception:  # noqa: BLE001 - objects that do not compare
        return repr(a) == repr(b)


def differences(ours: inspect.Signature, theirs: inspect.Signature, method: bool) -> list[str]:
    """How ``ours`` fails calls that ``theirs`` accepts (names, defaults, positions)."""
    fp, tp = list(ours.parameters.values()), list(theirs.parameters.values())
    if method:
        fp, tp = fp[1:], tp[1:]
    if [p.kind for p in tp] == [P.VAR_POSITIONAL, P.VAR_KEYWORD]:
        return []
    out = []
    var_keyword = any(p.kind == P.VAR_KEYWORD for p in fp)
    by_name = {p.name: p for p in fp}
    for p in tp:
        if p.kind in (P.VAR_POSITIONAL, P.VAR_KEYWORD, P.POSITIONAL_ONLY) or p.name.startswith("_"):
            continue
        q = by_name.get(p.name)
        if q is not None and q.kind == P.VAR_KEYWORD:
            continue
        if q is None or q.kind in (P.POSITIONAL_ONLY, P.VAR_POSITIONAL):
            if not var_keyword:
                out.append(f"no keyword {p.name!r}")
            continue
        if p.default is not P.empty:
            if q.default is P.empty:
                out.append(f"{p.name}: no default (PyTorch's {p.default!r})")
            elif not _same_default(p.default, q.default):
                out.append(f"{p.name}: default {q.default!r} (PyTorch's {p.default!r})")
    positional = (P.POSITIONAL_ONLY, P.POSITIONAL_OR_KEYWORD)
    tpos = [p for p in tp if p.kind in positional]
    fpos = [p.name for p in fp if p.kind in positional]
    var_positional = any(p.kind == P.VAR_POSITIONAL for p in fp)
    for i, p in enumerate(tpos):
        if i < len(fpos):
            if fpos[i] != p.name and p.kind != P.POSITIONAL_ONLY:
                out.append(f"position {i}: {fpos[i]!r} (PyTorch's {p.name!r})")
        elif not var_positional and not p.name.startswith("_"):
            out.append(f"position {i} ({p.name!r}) is not positional")
            break
    their_names = {p.name for p in tp}
    if not any(p.kind == P.VAR_POSITIONAL for p in tp):
        out += [f"requires {p.name!r}, which PyTorch does not have" for p in fp
                if p.kind not in (P.VAR_POSITIONAL, P.VAR_KEYWORD) and p.name not in their_names
                and p.default is P.empty]
    return out


@functools.cache
def _pairs():
    """``(qualified name, fgrad's callable, PyTorch's, is a method)`` for each public callable
    of `fgrad.torch` that PyTorch has at the same path."""
    seen, out = set(), []
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tools"))
    from make_api_index import walk

    for module_name in walk("fgrad.torch"):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                peer = importlib.import_module("torch" + module_name[len("fgrad.torch"):])
        except Exception:  # noqa: BLE001 - fgrad's own module (distributions.continuous, ...)
            continue
        module = sys.modules[module_name]
        for name in getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]:
            ours, theirs = getattr(module, name, None), getattr(peer, name, None)
            if (ours is None or theirs is None or id(ours) in seen
                    or not str(getattr(ours, "__module__", "")).startswith("fgrad.torch")):
                continue
            seen.add(id(ours))
            if inspect.isclass(ours) and inspect.isclass(theirs):
                for attr in dir(ours):
                    if attr.startswith("_") and attr != "__init__":
                        continue
                    a = inspect.getattr_static(ours, attr, None)
                    b = inspect.getattr_static(theirs, attr, None)
                    method = not isinstance(a, staticmethod)
                    a = a.__func__ if isinstance(a, (staticmethod, classmethod)) else a
                    b = b.__func__ if isinstance(b, (staticmethod, classmethod)) else b
                    if not (inspect.isfunction(a) and inspect.isfunction(b)):
                        continue
                    if not a.__module__.startswith("fgrad"):
                        continue
                    if (id(a), id(b)) not in seen:
                        seen.add((id(a), id(b)))
                        out.append((f"{module_name}.{name}.{attr}", a, b, method))
            elif callable(ours) and not inspect.isclass(ours) and callable(theirs):
                out.append((f"{module_name}.{name}", ours, theirs, False))
    return out


def test_parameter_names_and_defaults_match_pytorch():
    if not torch_is_pinned():  # signatures change between releases (2.11 lacks 2.13's parameters)
        pytest.skip(torch_version_note())
    rows = _pairs()
    assert len(rows) > 500  # (functions, classes' __init__ and methods of nn, optim, distributions, ...)
    bad = []
    for qualified, ours, theirs, method in rows:
        a, b = _signature(ours), _signature(theirs)
        if a is None or b is None or qualified in ALLOWED:
            continue
        diff = differences(a, b, method)
        if diff:
            bad.append(f"{qualified}: {'; '.join(diff)}")
    assert not bad, f"{len(bad)} signatures differ from PyTorch's:\n" + "\n".join(bad)


def test_allowed_differences_still_exist():
    """An entry of `ALLOWED` that no longer differs is removed (the list stays true)."""
    rows = {q: (a, b, m) for q, a, b, m in _pairs()}
    stale = [q for q in ALLOWED if q in rows and None not in (_signature(rows[q][0]), _signature(rows[q][1]))
             and not differences(_signature(rows[q][0]), _signature(rows[q][1]), rows[q][2])]
    assert not stale, stale


def test_differences_are_found():
    """The comparison sees a renamed keyword, a changed default, a missing keyword, an order."""
    def theirs(self, split_size, dim=0, *, value=1.0): ...

    def renamed(self, split_size_or_sections, dim=0, *, value=1.0): ...

    def other_default(self, split_size, dim=1, *, value=1.0): ...

    def no_value(self, split_size, dim=0): ...

    def swapped(self, dim, split_size, *, value=1.0): ...

    t = inspect.signature(theirs)
    assert differences(inspect.signature(theirs), t, True) == []
    assert "no keyword 'split_size'" in differences(inspect.signature(renamed), t, True)
    assert differences(inspect.signature(other_default), t, True) == ["dim: default 1 (PyTorch's 0)"]
    assert differences(inspect.signature(no_value), t, True) == ["no keyword 'value'"]
    assert "position 0: 'dim' (PyTorch's 'split_size')" in differences(inspect.signature(swapped), t, True)


# -- the mismatches this test found, fixed ----------------------------------------------------

def test_keyword_calls_that_failed_before_port():
    """Each of these raised TypeError (an unknown keyword) or did something else than PyTorch
    before the names were aligned."""
    import fgrad.torch as ft

    assert [t.tolist() for t in ft.arange(5).split(split_size=2)] == [[0, 1], [2, 3], [4]]
    # Tensor.norm's fourth positional argument is dtype (it was torch.norm's out)
    assert ft.tensor([[3.0, 4.0]]).norm(2, 1, False, ft.float64).dtype == ft.float64
    out = ft.nn.ConstantPad1d(2, value=3.5)(ft.zeros(1, 2))
    assert out.tolist() == [[3.5, 3.5, 0.0, 0.0, 3.5, 3.5]]
    with pytest.raises(TypeError):
        ft.nn.ConstantPad1d(2)                       # PyTorch's value has no default
    assert ft.nn.GroupNorm(2, 4, bias=False).bias is None
    with pytest.warns(FutureWarning, match="min_value"):
        assert ft.nn.Hardtanh(min_value=-2.0).min_val == -2.0
    assert ft.chain_matmul(ft.eye(2), ft.eye(2), out=ft.empty(2, 2)).tolist() == [[1.0, 0.0], [0.0, 1.0]]
    assert [t.shape for t in ft.meshgrid(ft.arange(2), ft.arange(3), indexing=None)] == [(2, 3), (2, 3)]
    assert ft.cdist(ft.zeros(1, 2), ft.ones(1, 2), compute_mode="use_mm_for_euclid_dist").shape == (1, 1)
    assert ft.func.jvp(ft.sin, (ft.tensor(0.0),), (ft.tensor(2.0),), strict=False)[1].item() == 2.0
    assert ft.compile(lambda x: x + 1, backend=None, name="f")(ft.zeros(1)).item() == 1.0
    e0, e1 = ft.cuda.Event(), ft.cuda.Event()
    e0.record(), e1.record()
    assert e0.elapsed_time(end_event=e1) >= 0.0
    assert len(list(ft.nn.Sequential(ft.nn.ReLU()).modules(remove_duplicate=True))) == 2
    assert ft.empty(2, 3).dim_order(ambiguity_check=True) == (0, 1)
    with pytest.raises(RuntimeError, match="unique dim order"):
        ft.empty(2, 1).dim_order(ambiguity_check=True)
    assert tuple(ft.compiler.list_backends()) == tuple(ft._dynamo.list_backends(exclude_tags=None))
    calls = []

    class Records(ft.nn.Module):
        def forward(self, x=None, y=None):
            calls.append((x, y))

    ft.jit.trace_module(Records(), {"forward": {"y": 2}}, example_inputs_is_kwarg=True)
    assert calls == [(None, 2)]                      # (forward got the dict as x before)


def test_module_forward_hook_with_kwargs_and_always_call():
    """`register_module_forward_hook(with_kwargs=, always_call=)`: the keywords were refused
    (with_kwargs) or accepted and ignored (always_call)."""
    import fgrad.torch as ft
    from fgrad.torch.nn.modules.module import register_module_forward_hook

    seen = []
    h = register_module_forward_hook(lambda m, a, kw, out: seen.append(sorted(kw)), with_kwargs=True)
    try:
        ft.nn.Identity()(ft.ones(1))
    finally:
        h.remove()
    assert seen == [[]]

    class Fails(ft.nn.Module):
        def forward(self, x):
            raise ValueError("no")

    called = []
    h = register_module_forward_hook(lambda m, a, out: called.append(out), always_call=True)
    try:
        with pytest.raises(ValueError):
            Fails()(ft.ones(1))
    finally:
        h.remove()
    assert called == [None]
