"""Run a PyTorch docstring example on a ``torch``-like module and record what it shows.

``tools/torch_docstring_examples.py`` extracts the ``>>>`` examples of PyTorch's own docstrings and
runs each twice, on real ``torch`` and on ``fgrad.torch``; ``tests/shim/test_torch_docstring_examples.py``
runs the stored ones on ``fgrad.torch`` against PyTorch's stored results. Both use this module, which
imports neither: the module to run on is passed in.

>>> import fgrad.torch as torch
>>> steps = run_example(["x = torch.arange(3)", "x * 2"], torch)
>>> steps[1]["kind"], steps[1]["value"]["values"]
('value', [0, 2, 4])
"""

from __future__ import annotations

import ast
import contextlib
import io
import itertools
import math
import re
import signal
import warnings
from typing import Any

import numpy as np

__all__ = ["run_example", "namespace_for", "encode", "compare_steps", "missing_warnings"]


def _importer(torch: Any) -> Any:
    """``__import__`` that reads ``torch`` and ``torch.x`` as the face under test (an example's own
    ``import torch`` is the import a port changes)."""
    import builtins
    import importlib

    real = builtins.__import__
    if torch.__name__ == "torch":
        return real

    def imp(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0) -> Any:
        if level == 0 and (name == "torch" or name.startswith("torch.")):
            mod = importlib.import_module(torch.__name__ + name[len("torch"):])
            return mod if fromlist else torch
        return real(name, globals, locals, fromlist, level)

    return imp


def resolve(torch: Any, qualname: str) -> Any:
    """``torch.nn.utils.rnn.pad_sequence`` (or ``Tensor.add``) looked up on the face ``torch``;
    ``None`` when the face lacks it.

    >>> import fgrad.torch as torch
    >>> resolve(torch, "torch.nn.Linear") is torch.nn.Linear
    True
    """
    parts = qualname.split(".")
    obj = torch.Tensor if parts[0] == "Tensor" else torch
    for p in parts[1:]:
        obj = getattr(obj, p, None)
        if obj is None:
            return None
    return obj


def _stub(*args: Any, **kwargs: Any) -> float:
    return 1.0


def namespace_for(torch: Any, qualname: str = "") -> dict[str, Any]:
    """The names PyTorch's examples use, bound to ``torch`` (real or ``fgrad.torch``): ``torch``,
    ``nn``, ``F``, the documented object under its short name (the optimizer and scheduler examples
    use bare names), and the stand-ins the ``torch.optim`` examples assume (``optimizer`` with
    ``lr=0.05``, ``train``/``validate`` that do nothing).

    >>> import fgrad.torch as torch
    >>> sorted(k for k in namespace_for(torch) if k in ("F", "nn", "torch"))
    ['F', 'nn', 'torch']
    """
    import builtins

    b = dict(vars(builtins))
    b["__import__"] = _importer(torch)
    ns: dict[str, Any] = {"__builtins__": b, "torch": torch, "nn": torch.nn, "F": torch.nn.functional,
                          "np": np, "numpy": np, "math": math, "itertools": itertools,
                          "__name__": "__doctest__"}
    if qualname:
        obj = resolve(torch, qualname)
        if obj is not None:
            ns.setdefault(qualname.split(".")[-1], obj)
        if ".prune." in qualname:
            ns["prune"] = torch.nn.utils.prune
        if qualname.startswith("torch.linalg."):
            ns["linalg"] = torch.linalg
        if ".lr_scheduler." in qualname:  # the examples name the other schedulers bare
            sched = torch.optim.lr_scheduler
            ns.update({k: v for k, v in vars(sched).items() if isinstance(v, type) and k[:1].isupper()})
        if ".optim" in qualname:
            ns.update(optimizer=torch.optim.SGD([torch.nn.Parameter(torch.zeros(1))], lr=0.05),
                      train=_stub, validate=_stub, train_batch=_stub)
    return ns


def _to_numpy(t: Any) -> np.ndarray:
    t = t.detach()
    if getattr(t, "layout", None) is not None and "strided" not in str(t.layout):
        t = t.to_dense()
    if t.is_conj():
        t = t.resolve_conj()
    if t.is_neg():
        t = t.resolve_neg()
    name = str(t.dtype).removeprefix("torch.")
    if name == "bfloat16" or name.startswith("float8"):
        t = t.float()
    if t.dtype.is_complex or t.dtype.is_floating_point or name == "bool" or "int" in name:
        return np.asarray(t.cpu().numpy())
    return np.asarray(t.cpu().tolist())


def _plain(x: Any) -> Any:
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, complex) or np.iscomplexobj(x):
        return {"re": _plain(float(np.real(x))), "im": _plain(float(np.imag(x)))}
    if isinstance(x, float) or isinstance(x, np.floating):
        x = float(x)
        return x if math.isfinite(x) else repr(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    return x


def _values(a: np.ndarray) -> Any:
    if a.ndim == 0:
        return _plain(a[()])
    return [_values(s) for s in a]


FULL_VALUES = 512  # tensors up to this many elements are recorded whole
FIRST = 32  # of a larger one, the first values (with its sum and sum of magnitudes)


def encode(v: Any, torch: Any) -> Any:
    """A JSON-able record of an expression's value: tensors by dtype, shape and values (a large
    one by its first values, sum and sum of magnitudes);
    tuples, lists and named tuples element-wise; anything else by ``repr``.

    >>> import fgrad.torch as torch
    >>> encode(torch.tensor([1.5]), torch)
    {'tensor': 'torch.float32', 'shape': [1], 'values': [1.5]}
    """
    if isinstance(v, torch.Tensor):
        if str(getattr(v, "device", "cpu")) == "meta":
            return {"tensor": str(v.dtype), "shape": list(v.shape), "values": "meta"}
        a = _to_numpy(v)
        if a.size <= FULL_VALUES:
            return {"tensor": str(v.dtype), "shape": list(v.shape), "values": _values(a)}
        flat = a.reshape(-1)  # a large tensor: its first values and its sums stand for it
        wide = flat.astype(np.complex128 if np.iscomplexobj(flat) else np.float64)
        return {"tensor": str(v.dtype), "shape": list(v.shape), "first": _values(flat[:FIRST]),
                "sum": _plain(wide.sum()), "abs_sum": _plain(np.abs(wide).sum())}
    if isinstance(v, (tuple, list)) and not isinstance(v, torch.Size):
        kind = type(v).__name__ if hasattr(v, "_fields") or type(v).__module__.startswith(
            ("torch.return_types", "fgrad")) else type(v).__name__
        return {"seq": kind, "items": [encode(x, torch) for x in v]}
    if isinstance(v, float):
        return {"float": _plain(v)}
    if callable(v) and not isinstance(v, type) and hasattr(v, "__name__") and not hasattr(v, "parameters"):
        return {"callable": v.__name__}
    if isinstance(v, complex):
        return {"complex": _plain(v)}
    return {"repr": _ADDRESS.sub(" at 0x?", repr(v))}


_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


class _Timeout(Exception):
    pass


def _alarm(signum: int, frame: Any) -> None:
    raise _Timeout("example ran past its time limit")


def run_example(sources: list[str], torch: Any, *, qualname: str = "", seed: int = 0,
                time_limit: float = 20.0) -> list[dict]:
    """Run an example's statements in order in a fresh namespace after ``torch.manual_seed(seed)``.

    Each statement gives a step: ``{"kind": "value", "value": ...}`` for an expression statement
    (its :func:`encode`), ``{"kind": "exec"}`` otherwise, with ``"stdout"`` (what it printed),
    ``"warns"`` (the categories of the warnings it gave, when it gave any) and,
    when it raised, ``{"kind": "raises", "error": type name}``; the run stops at the first error.
    When the namespace ends with an ``optimizer``, a last ``"state"`` step holds its learning rates.
    The switches an example may flip (default dtype, print options, grad mode) are put back after.

    >>> import fgrad.torch as torch
    >>> run_example(["x = 2", "print(x)", "x + 1"], torch)
    [{'kind': 'exec', 'stdout': ''}, {'kind': 'value', 'value': {'repr': 'None'}, 'stdout': '2\\n'}, \
{'kind': 'value', 'value': {'repr': '3'}, 'stdout': ''}]
    """
    saved = (torch.get_default_dtype(), torch.is_grad_enabled(), torch.are_deterministic_algorithms_enabled())
    torch.manual_seed(seed)
    ns = namespace_for(torch, qualname)
    steps: list[dict] = []
    use_alarm = hasattr(signal, "SIGALRM")
    if use_alarm:
        old = signal.signal(signal.SIGALRM, _alarm)
        signal.setitimer(signal.ITIMER_REAL, time_limit)
    try:
        for src in sources:
            out = io.StringIO()
            step: dict[str, Any]
            caught: list = []
            try:
                tree = ast.parse(src, mode="exec")
                with contextlib.redirect_stdout(out), warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr):
                        v = eval(compile(ast.Expression(tree.body[0].value), "<example>", "eval"), ns)
                        step = {"kind": "value", "value": encode(v, torch)}
                    else:
                        exec(compile(tree, "<example>", "exec"), ns)
                        step = {"kind": "exec"}
            except _Timeout:
                raise
            except BaseException as e:  # noqa: BLE001 - an example may raise anything; record it
                if isinstance(e, KeyboardInterrupt):
                    raise
                step = {"kind": "raises", "error": type(e).__name__, "message": str(e)[:300]}
            step["stdout"] = out.getvalue()
            if caught:  # the warnings' categories (PyTorch's deprecations, scheduler order...)
                step["warns"] = sorted({w.category.__name__ for w in caught})
            steps.append(step)
            if step["kind"] == "raises":
                break
        else:
            opt = ns.get("optimizer")
            if opt is not None and hasattr(opt, "param_groups"):
                lrs = [float(g["lr"]) for g in opt.param_groups]
                steps.append({"kind": "state", "value": {"seq": "lr", "items": [{"float": x} for x in lrs]},
                              "stdout": ""})
    except _Timeout:
        steps.append({"kind": "raises", "error": "Timeout", "message": "", "stdout": ""})
    finally:
        if use_alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        _restore(torch, saved)
    return steps


def _restore(torch: Any, saved: tuple) -> None:
    """Undo the process-wide switches examples flip (default dtype, print options, grad mode,
    deterministic algorithms), so the next example starts as the first did."""
    dtype, grad, deterministic = saved
    torch.set_default_dtype(dtype)
    torch.set_printoptions(profile="default")
    torch.set_grad_enabled(grad)
    torch.use_deterministic_algorithms(deterministic)


def _close(a: Any, b: Any, rtol: float, atol: float) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) == {"re", "im"} and set(b) == {"re", "im"}:
            return _close(a["re"], b["re"], rtol, atol) and _close(a["im"], b["im"], rtol, atol)
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(x, y, rtol, atol) for x, y in zip(a, b))
    if isinstance(a, bool) or isinstance(b, bool):
        return a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or abs(a - b) <= atol + rtol * abs(b)
    return a == b


def _max_abs(v: Any) -> float:
    if isinstance(v, list):
        return max((_max_abs(x) for x in v), default=0.0)
    if isinstance(v, dict):
        return max(_max_abs(v.get("re", 0.0)), _max_abs(v.get("im", 0.0)))
    return abs(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else 0.0


def _same_value(a: Any, b: Any, rtol: float, atol: float) -> str | None:
    if set(a) != set(b):
        return f"{_short(a)} vs {_short(b)}"
    if "tensor" in a:
        if a["tensor"] != b["tensor"] or a["shape"] != b["shape"]:
            return f"{a['tensor']}{a['shape']} vs {b['tensor']}{b['shape']}"
        if "values" not in b:
            if "first" not in a:
                return "values vs summary"
            scale = max(1.0, _max_abs(b["first"]))
            if not _close(a["first"], b["first"], rtol, atol * scale):
                return f"first values {_short(a['first'])} vs {_short(b['first'])}"
            tol = atol * max(1.0, _max_abs(b["abs_sum"])) * 10
            for key in ("sum", "abs_sum"):
                if not _close(a[key], b[key], rtol, tol):
                    return f"{key} {a[key]} vs {b[key]}"
            return None
        scale = max(1.0, _max_abs(b["values"]))  # float32 sums of many terms: error ~ eps * magnitude
        if not _close(a["values"], b["values"], rtol, atol * scale):
            return f"values {_short(a['values'])} vs {_short(b['values'])}"
        return None
    if "seq" in a:
        if len(a["items"]) != len(b["items"]):
            return f"{a['seq']} of {len(a['items'])} vs {b['seq']} of {len(b['items'])}"
        for x, y in zip(a["items"], b["items"]):
            d = _same_value(x, y, rtol, atol)
            if d:
                return d
        return None
    key = next(iter(a))
    if key in ("float", "complex"):
        return None if _close(a[key], b[key], rtol, atol) else f"{a[key]} vs {b[key]}"
    return None if a == b else f"{_short(a[key])} vs {_short(b[key])}"


def _short(x: Any, n: int = 160) -> str:
    s = repr(x)
    return s if len(s) <= n else s[:n] + "..."


def _numbers(text: str) -> list[str]:
    return re.findall(r"-?\d+\.?\d*(?:e[+-]?\d+)?|nan|inf|[^\s\d.]+", text)


def _same_stdout(a: str, b: str, rtol: float, atol: float) -> bool:
    a, b = _ADDRESS.sub(" at 0x?", a), _ADDRESS.sub(" at 0x?", b)
    if a == b:
        return True
    ta, tb = _numbers(a), _numbers(b)
    if len(ta) != len(tb):
        return False
    for x, y in zip(ta, tb):
        if x == y:
            continue
        try:
            fx, fy = float(x), float(y)
        except ValueError:
            return False
        if not abs(fx - fy) <= atol + rtol * abs(fy) + 10 ** -(len(y.split(".")[-1]) if "." in y else 0):
            return False
    return True


def missing_warnings(fgrad_steps: list[dict], torch_steps: list[dict]) -> list[str]:
    """The categories of the warnings PyTorch gives and fgrad does not (deprecations, mostly).

    >>> missing_warnings([{"kind": "exec"}], [{"kind": "exec", "warns": ["UserWarning"]}])
    ['UserWarning']
    """
    out: set[str] = set()
    for f, t in zip(fgrad_steps, torch_steps):
        out |= set(t.get("warns", ())) - set(f.get("warns", ()))
    return sorted(out)


def compare_steps(fgrad_steps: list[dict], torch_steps: list[dict], *, rtol: float = 1e-4,
                  atol: float = 1e-5) -> str | None:
    """``None`` when the fgrad run shows what the PyTorch run shows, else the first difference.

    Errors agree when both raise the same type at the same step; printed text agrees when its
    words agree and its numbers agree to the tolerance (or to the last printed digit); fgrad may
    not warn where PyTorch does not.

    >>> compare_steps([{"kind": "exec", "stdout": "1.0001\\n"}], [{"kind": "exec", "stdout": "1.0000\\n"}])
    """
    for i, (f, t) in enumerate(zip(fgrad_steps, torch_steps)):
        if f["kind"] != t["kind"]:
            what = f"{f.get('error', f['kind'])}: {f.get('message', '')}"
            return f"step {i}: fgrad {what[:200]} vs torch {t.get('error', t['kind'])}"
        if f["kind"] == "raises" and f["error"] != t["error"]:
            return f"step {i}: fgrad raises {f['error']} vs torch {t['error']}"
        if f["kind"] in ("value", "state"):
            d = _same_value(f["value"], t["value"], rtol, atol)
            if d:
                return f"step {i}: {d}"
        extra = sorted(set(f.get("warns", ())) - set(t.get("warns", ())))
        if extra:  # a warning PyTorch does not give (one PyTorch gives and fgrad not: `missing_warnings`)
            return f"step {i}: fgrad warns {extra}, torch {t.get('warns')}"
        if not _same_stdout(f["stdout"], t["stdout"], rtol, atol):
            return f"step {i}: printed {_short(f['stdout'])} vs {_short(t['stdout'])}"
    if len(fgrad_steps) != len(torch_steps):
        return f"fgrad ran {len(fgrad_steps)} steps, torch {len(torch_steps)}"
    return None
