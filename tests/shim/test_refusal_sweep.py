"""Every public ``fgrad.torch`` function and ``Tensor`` method that takes a tensor, called on
bool, uint8, int8, int32, int64, float16, bfloat16, float32, float64, complex64 and complex128
tensors: PyTorch raises <=> fgrad.torch raises (the same exception type); where both compute,
the results have the same dtype.  The sweep found ~160 functions computing what PyTorch
refuses (``max``/``sort``/``clamp`` of complex, ``matmul``/``trace`` of bools, ``quantile`` of
integers, ``inverse`` of float16, in-place float ops on integers...): they are refused by the
table in `fgrad.torch._refusals` (whose messages are PyTorch's, checked here word for word).

``tests/stored/torch_dtype_verdicts.json`` holds PyTorch 2.13's verdicts (the call template
of each op and, per dtype, ``["ok", result dtype]`` or ``[error type, message]``), so CI
without PyTorch checks fgrad against them; with PyTorch installed they are recomputed live.
Regenerate them with ``python tests/shim/test_refusal_sweep.py`` (PyTorch installed)."""

from __future__ import annotations

import inspect
import json
import pathlib
import warnings

import pytest

import fgrad.torch as ft
from fgrad.torch._refusals import REFUSALS
from tests._peers import torch_or_none

STORED = pathlib.Path(__file__).parent.parent / "stored" / "torch_dtype_verdicts.json"
DTYPES = ("bool", "uint8", "int8", "int32", "int64", "float16", "bfloat16", "float32", "float64", "complex64",
          "complex128")
VALUES = [[1.0, 2.0, 0.5], [3.0, 1.0, 2.0], [0.25, 4.0, 1.5]]
# the first call PyTorch accepts on float32 is the op's template
TEMPLATES = (lambda f, x: f(x), lambda f, x: f(x, x), lambda f, x: f(x, x, x), lambda f, x: f(x, 0),
             lambda f, x: f(x, 1))
# not ops on a tensor's values (creation, conversion, storage, autograd, random fills, views)
SKIP = set("""tensor as_tensor from_numpy asarray manual_seed seed save load set_default_dtype compile
set_printoptions use_deterministic_algorithms set_grad_enabled empty_like zeros_like ones_like rand_like
randn_like randint_like full_like empty_strided clone detach is_tensor is_storage numel typename
set_default_device set_rng_state get_rng_state vmap cond export sym_int sym_float sym_max sym_min sym_not
sym_ite sym_sqrt sym_sum sym_fresh_size chunk split unbind tensor_split hsplit vsplit dsplit
broadcast_tensors meshgrid atleast_1d atleast_2d atleast_3d block_diag cartesian_prod combinations
result_type can_cast promote_types is_floating_point is_complex is_nonzero is_same_size is_signed is_conj
is_neg is_inference set_flush_denormal get_default_dtype from_dlpack to_dlpack frombuffer nonzero_static
bernoulli multinomial normal poisson rand randn randint randperm empty zeros ones full arange range
linspace logspace eye tril_indices triu_indices fill data_ptr storage untyped_storage tolist item numpy
backward register_hook retain_grad to type cpu cuda element_size dim size stride nelement ndimension
storage_offset is_contiguous contiguous view view_as expand expand_as reshape reshape_as new_empty
new_zeros new_ones new_full new_tensor new_empty_strided pin_memory is_pinned is_shared get_device
dim_order align_to refine_names rename unflatten bfloat16 bool byte char double float half int long short
cfloat cdouble type_as as_strided as_subclass dequantize q_scale int_repr coalesce to_sparse to_dense
to_mkldnn sparse_mask is_set_to module_load sum_to_size istft stft apply_ map_ map2_ record_stream""".split())
# where fgrad knowingly differs (each a limitation documented in docs/torch-refusals.md)
KNOWN = {
    "Tensor.chalf": "complex32 (ComplexHalf) is not supported; fgrad refuses it",
    "complex": "complex(float16, float16) is complex32 in PyTorch; fgrad gives complex64",
    "Tensor.storage_type": "typed storage classes exist for the common dtypes only",
    "sparse_coo_tensor": "PyTorch takes float indices (here the template's values); fgrad asks for int64",
}


def _outcome(call, m, dtype: str) -> list:
    x = m.tensor(VALUES, dtype=getattr(m, dtype))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = call(x)
    except Exception as e:  # noqa: BLE001 - the outcome compared is the error
        return [type(e).__name__, str(e).split("\n")[0][:300]]
    if isinstance(r, (tuple, list)) and r and hasattr(r[0], "dtype"):
        r = r[0]
    d = getattr(r, "dtype", None)
    return ["ok", str(d).replace("torch.", "") if d is not None else type(r).__name__]


def _function(m, key: str):
    if key.startswith("Tensor."):
        name = key[len("Tensor."):]
        return lambda *a: getattr(a[0], name)(*a[1:])
    return getattr(m, key)


def _keys(torch) -> list:
    """The public functions and methods both libraries have (in-place methods excluded: their
    functions' rules apply, and they would write into the shared input)."""
    keys = []
    for n in dir(ft):
        f, g = getattr(ft, n, None), getattr(torch, n, None)
        if (not n.startswith("_") and n not in SKIP and callable(f) and callable(g) and not inspect.isclass(g)
                and not inspect.ismodule(g)):
            keys.append(n)
    for n in dir(ft.Tensor):
        if n.startswith("_") or n in SKIP or n.endswith("_"):
            continue
        g = getattr(torch.Tensor, n, None)
        if callable(g) and callable(getattr(ft.Tensor, n, None)) and not isinstance(g, property):
            keys.append("Tensor." + n)
    return sorted(keys)


def verdicts(torch) -> dict:
    """PyTorch's verdicts: ``{"templates": {key: index}, "verdicts": {key: {dtype: outcome}}}``."""
    templates, out = {}, {}
    for key in _keys(torch):
        f = _function(torch, key)
        for i, t in enumerate(TEMPLATES):
            if _outcome(lambda x, t=t: t(f, x), torch, "float32")[0] == "ok":
                templates[key] = i
                out[key] = {d: _outcome(lambda x, t=t: t(f, x), torch, d) for d in DTYPES}
                break
    return {"torch": torch.__version__, "templates": templates, "verdicts": out}


def _differences(data: dict, known: bool = False) -> list:
    """(key, dtype, PyTorch's outcome, fgrad's) where they disagree: one raises and the other
    does not, different error types, or different result dtypes (``KNOWN`` ops only with
    ``known``)."""
    bad = []
    for key, per in data["verdicts"].items():
        if (key in KNOWN) != known:
            continue
        try:
            f = _function(ft, key)
        except AttributeError:
            bad.append((key, "-", "exists", "missing"))
            continue
        t = TEMPLATES[data["templates"][key]]
        for dtype, want in per.items():
            got = _outcome(lambda x: t(f, x), ft, dtype)
            if want[0] != got[0] or (want[0] == "ok" and want[1] != got[1]):
                bad.append((key, dtype, want, got))
    return bad


def _stored() -> dict:
    return json.loads(STORED.read_text())


def test_fgrad_agrees_with_stored_verdicts():
    bad = _differences(_stored())
    assert not bad, bad


def test_refusal_messages_are_pytorchs():
    """Every rule of the table: fgrad's message is PyTorch's stored one, word for word."""
    data, checked, bad = _stored(), 0, []
    for name in REFUSALS:
        for key in (name, "Tensor." + name):
            if key not in data["verdicts"] or key in KNOWN:
                continue
            t = TEMPLATES[data["templates"][key]]
            for dtype, want in data["verdicts"][key].items():
                if want[0] != "ok":
                    got = _outcome(lambda x: t(_function(ft, key), x), ft, dtype)
                    checked += 1
                    if got != want:
                        bad.append((key, dtype, want, got))
    assert checked > 300 and not bad, bad


def test_known_differences_are_still_different():
    """A ``KNOWN`` entry that no longer differs is removed from the list."""
    differ = {d[0] for d in _differences(_stored(), known=True)}
    assert differ == set(KNOWN)


def test_live_pytorch_agrees():
    torch = torch_or_none()
    if torch is None:
        pytest.skip("PyTorch is not installed")
    live = verdicts(torch)
    bad = _differences(live)
    assert not bad, bad
    stored = _stored()
    if live["torch"] == stored["torch"]:  # the stored table is this PyTorch's (regenerate it if not)
        assert live["verdicts"] == stored["verdicts"] and live["templates"] == stored["templates"]


if __name__ == "__main__":
    import torch

    v = verdicts(torch)
    rows = ",\n".join(f"{json.dumps(k)}: {json.dumps(v['verdicts'][k])}" for k in sorted(v["verdicts"]))
    templates = json.dumps(v["templates"], sort_keys=True)
    STORED.write_text(f'{{"torch": {json.dumps(v["torch"])},\n"templates": {templates},'
                      f'\n"verdicts": {{\n{rows}}}}}\n')
    print("wrote", STORED)


def test_matmul_operator_refuses_as_matmul():
    """Regression: ``a @ b`` (``Tensor.__matmul__``/``__rmatmul__``) is ``matmul``, so it
    refuses bools as ``torch.matmul`` does (the operator computed a product of bools)."""
    import fgrad.torch as ft

    b = ft.ones(2, 2, dtype=ft.bool)
    for f in (lambda: b @ b, lambda: ft.matmul(b, b), lambda: b.__rmatmul__(b)):
        with pytest.raises(NotImplementedError, match="\"addmm_impl_cpu_\" not implemented for 'Bool'"):
            f()
    assert (ft.ones(2, 2) @ ft.ones(2, 2)).tolist() == [[2.0, 2.0], [2.0, 2.0]]
