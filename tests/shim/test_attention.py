"""Attention and transformers in fgrad.torch: ``F.scaled_dot_product_attention``,
``nn.MultiheadAttention``, ``nn.TransformerEncoder/Decoder(Layer)``, ``nn.Transformer``.

Every case builds the same computation in fgrad.torch and (when installed) PyTorch from the
same NumPy inputs and parameters, and compares outputs and gradients (inputs and parameters)
element by element; each case also has stored fingerprints of PyTorch's numbers (sum and sum
of squares of each output and gradient), so the suite checks PyTorch's values without it.
Regenerate them with ``python tests/shim/test_attention.py``.
"""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest

import fgrad.torch as ft

try:
    import torch as _torch

    _torch.set_num_threads(1)
except Exception:  # noqa: BLE001
    _torch = None

needs_torch = pytest.mark.skipif(_torch is None, reason="torch is not installed")


def _arrays(seed: int, *shapes):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(s) for s in shapes]


def _set_params(lib, module, seed: int) -> None:
    """Deterministic parameters (same in both libraries), in named_parameters order."""
    rng = np.random.default_rng(seed)
    with lib.no_grad():
        for _, p in module.named_parameters():
            p.copy_(lib.tensor(0.3 * rng.standard_normal(tuple(p.shape)), dtype=p.dtype))


def _leaves(lib, arrays, dtype):
    return [lib.tensor(a, dtype=dtype, requires_grad=True) for a in arrays]


def _finish(lib, outs, inputs, module=None):
    """Outputs, then gradients of a fixed weighted sum of the outputs w.r.t. the inputs and
    the module's parameters (in order), as float64 NumPy arrays."""
    outs = [o for o in outs if o is not None]
    loss = 0
    for i, o in enumerate(outs):
        w = lib.tensor(np.cos(np.arange(o.numel()) * (0.7 + i)).reshape(tuple(o.shape)), dtype=o.dtype)
        loss = loss + (o * w).sum()
    wrt = list(inputs) + ([p for _, p in module.named_parameters()] if module is not None else [])
    grads = lib.autograd.grad(loss, wrt, allow_unused=True)
    res = [o.detach().double().numpy() for o in outs]
    res += [
        np.zeros(tuple(t.shape)) if g is None else g.detach().double().numpy() for t, g in zip(wrt, grads)
    ]
    return res


# -- scaled_dot_product_attention --------------------------------------------------------


def _sdpa_case(name):
    q, k, v, fm = _arrays(1, (2, 3, 4, 5), (2, 3, 6, 5), (2, 3, 6, 7), (4, 6))
    bool_mask = np.random.default_rng(2).random((4, 6)) > 0.4
    bool_mask[1] = False  # a row that attends to nothing
    cases = {
        "plain": dict(),
        "bool_mask": dict(attn_mask=("bool", bool_mask)),
        "float_mask": dict(attn_mask=("float", fm)),
        "causal": dict(is_causal=True),
        "causal_square": dict(is_causal=True, q_len=6),
        "scale": dict(scale=0.3, attn_mask=("float", fm)),
    }
    return (q, k, v), cases[name]


def _run_sdpa(lib, name, dtype_name="float64"):
    (q, k, v), kw = _sdpa_case(name)
    dtype = getattr(lib, dtype_name)
    leaves = _leaves(lib, (q, k, v), dtype)
    kw = dict(kw)
    if "q_len" in kw:
        leaves[0] = lib.tensor(np.resize(q, (2, 3, kw.pop("q_len"), 5)), dtype=dtype, requires_grad=True)
    if "attn_mask" in kw:
        kind, m = kw["attn_mask"]
        kw["attn_mask"] = lib.tensor(m) if kind == "bool" else lib.tensor(m, dtype=dtype)
    out = lib.nn.functional.scaled_dot_product_attention(*leaves, **kw)
    return _finish(lib, [out], leaves)


def _run_sdpa_gqa(lib):
    q, k, v = _arrays(3, (2, 4, 3, 5), (2, 2, 3, 5), (2, 2, 3, 5))
    leaves = _leaves(lib, (q, k, v), lib.float64)
    out = lib.nn.functional.scaled_dot_product_attention(*leaves, enable_gqa=True, is_causal=True)
    return _finish(lib, [out], leaves)


SDPA_NAMES = ["plain", "bool_mask", "float_mask", "causal", "causal_square", "scale"]


# -- MultiheadAttention ------------------------------------------------------------------


def _run_mha(lib, name):
    E, H = 8, 2
    kw, call = {}, {}
    L, S, N = 4, 5, 3
    kdim = vdim = E
    if name == "kdim_vdim":
        kw.update(kdim=6, vdim=3)
        kdim, vdim = 6, 3
    if name == "batch_first":
        kw.update(batch_first=True)
    if name == "bias_kv_zero_attn":
        kw.update(add_bias_kv=True, add_zero_attn=True)
    if name == "no_bias":
        kw.update(bias=False)
    mha = lib.nn.MultiheadAttention(E, H, dtype=lib.float64, **kw)
    _set_params(lib, mha, 5)
    shapes = [(L, N, E), (S, N, kdim), (S, N, vdim)]
    if name == "batch_first":
        shapes = [(N, L, E), (N, S, E), (N, S, E)]
    if name == "unbatched":
        shapes = [(L, E), (S, E), (S, E)]
    leaves = _leaves(lib, _arrays(6, *shapes), lib.float64)
    rng = np.random.default_rng(7)
    kpm = rng.random((N, S)) > 0.7
    kpm[:, 0] = False
    if name in ("key_padding_mask", "bias_kv_zero_attn"):
        call["key_padding_mask"] = lib.tensor(kpm)
    if name == "bool_attn_mask":
        call["attn_mask"] = lib.tensor(rng.random((L, S)) > 0.7)
    if name == "float_attn_mask_3d":
        call["attn_mask"] = lib.tensor(rng.standard_normal((N * H, L, S)))
    if name == "per_head_weights":
        call.update(average_attn_weights=False, key_padding_mask=lib.tensor(kpm))
    if name == "no_weights":
        call.update(
            need_weights=False,
            key_padding_mask=lib.tensor(kpm),
            attn_mask=lib.tensor(rng.standard_normal((L, S))),
        )
    if name == "causal_no_weights":
        q = leaves[0]
        leaves = [q, q, q]
        mask = lib.nn.Transformer.generate_square_subsequent_mask(L, dtype=lib.float64)
        call.update(need_weights=False, attn_mask=mask, is_causal=True)
    out, weights = mha(*leaves, **call)
    return _finish(lib, [out, weights], leaves[:1] if name == "causal_no_weights" else leaves, mha)


MHA_NAMES = [
    "plain",
    "kdim_vdim",
    "batch_first",
    "bias_kv_zero_attn",
    "no_bias",
    "unbatched",
    "key_padding_mask",
    "bool_attn_mask",
    "float_attn_mask_3d",
    "per_head_weights",
    "no_weights",
    "causal_no_weights",
]


# -- transformers --------------------------------------------------------------------------


def _run_transformer(lib, name):
    nn = lib.nn
    d, h, ff = 8, 2, 12
    S, T, N = 5, 4, 2
    rng = np.random.default_rng(11)
    kpm = rng.random((N, S)) > 0.7
    kpm[:, 0] = False
    if name.startswith("encoder"):
        norm_first = name.endswith("norm_first")
        act = (
            "gelu"
            if name.endswith("gelu")
            else ("relu" if not name.endswith("callable") else nn.functional.silu)
        )
        layer = nn.TransformerEncoderLayer(
            d, h, ff, dropout=0.0, activation=act, batch_first=True, norm_first=norm_first, dtype=lib.float64
        )
        model = nn.TransformerEncoder(layer, 2, norm=nn.LayerNorm(d, dtype=lib.float64))
        _set_params(lib, model, 12)
        (src,) = leaves = _leaves(lib, _arrays(13, (N, S, d)), lib.float64)
        mask = nn.Transformer.generate_square_subsequent_mask(S, dtype=lib.float64)
        out = model(src, mask=mask, src_key_padding_mask=lib.tensor(kpm))
    elif name.startswith("decoder"):
        layer = nn.TransformerDecoderLayer(
            d, h, ff, dropout=0.0, norm_first=name.endswith("norm_first"), dtype=lib.float64
        )
        model = nn.TransformerDecoder(layer, 2)
        _set_params(lib, model, 14)
        leaves = _leaves(lib, _arrays(15, (T, N, d), (S, N, d)), lib.float64)
        tgt_mask = nn.Transformer.generate_square_subsequent_mask(T, dtype=lib.float64)
        out = model(*leaves, tgt_mask=tgt_mask, memory_key_padding_mask=lib.tensor(kpm))
    else:  # the full encoder-decoder
        model = nn.Transformer(d, h, 1, 2, ff, dropout=0.0, batch_first=True, dtype=lib.float64)
        _set_params(lib, model, 16)
        leaves = _leaves(lib, _arrays(17, (N, S, d), (N, T, d)), lib.float64)
        out = model(
            *leaves,
            tgt_mask=model.generate_square_subsequent_mask(T, dtype=lib.float64),
            src_key_padding_mask=lib.tensor(kpm),
            memory_key_padding_mask=lib.tensor(kpm),
        )
    return _finish(lib, [out], leaves, model)


TRANSFORMER_NAMES = [
    "encoder",
    "encoder_norm_first",
    "encoder_gelu",
    "encoder_callable",
    "decoder",
    "decoder_norm_first",
    "transformer",
]


def _all_cases():
    cases = {f"sdpa_{n}": (lambda lib, n=n: _run_sdpa(lib, n)) for n in SDPA_NAMES}
    cases["sdpa_gqa"] = _run_sdpa_gqa
    cases.update({f"mha_{n}": (lambda lib, n=n: _run_mha(lib, n)) for n in MHA_NAMES})
    cases.update({f"tf_{n}": (lambda lib, n=n: _run_transformer(lib, n)) for n in TRANSFORMER_NAMES})
    return cases


CASES = _all_cases()


def _fingerprint(arrays):
    return [[round(float(a.sum()), 9), round(float((a * a).sum()), 9)] for a in arrays]


@needs_torch
@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_torch_live(name):
    ours, theirs = CASES[name](ft), CASES[name](_torch)
    assert len(ours) == len(theirs)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        assert a.shape == b.shape, (name, i)
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-10, err_msg=f"{name}: result {i}")


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_stored_torch_numbers(name):
    got = _fingerprint(CASES[name](ft))
    want = STORED[name]
    assert len(got) == len(want), name
    np.testing.assert_allclose(np.array(got), np.array(want), rtol=1e-7, atol=1e-8, err_msg=name)


def test_sdpa_fully_masked_row_is_zero_with_zero_gradient():
    q = ft.randn(1, 3, 4, dtype=ft.float64, requires_grad=True)
    mask = ft.tensor([[True, True, False], [False, False, False], [True, False, False]])
    out = ft.nn.functional.scaled_dot_product_attention(q, q, q, attn_mask=mask)
    assert (out[0, 1] == 0).all()
    out.sum().backward()
    assert ft.isfinite(q.grad).all()


def test_sdpa_dropout_scales_and_zeroes():
    ft.manual_seed(0)
    q = ft.zeros(1, 1, 200, 4)
    v = ft.ones(1, 1, 200, 4)
    out = ft.nn.functional.scaled_dot_product_attention(q, q, v, dropout_p=0.5)
    # uniform weights 1/200 each, half dropped and the rest doubled: mean stays near 1
    m = float(out.mean())
    assert 0.8 < m < 1.2 and float(out.std()) > 0
    assert ft.allclose(ft.nn.functional.scaled_dot_product_attention(q, q, v, dropout_p=0.0), v)


def test_bad_inputs_raise_pytorch_errors():
    F = ft.nn.functional
    q = ft.randn(2, 3, 4)
    with pytest.raises(RuntimeError, match="query's last dim"):
        F.scaled_dot_product_attention(q, ft.randn(2, 3, 5), ft.randn(2, 3, 5))
    with pytest.raises(RuntimeError, match="attn_mask dtype"):
        F.scaled_dot_product_attention(q, q, q, attn_mask=ft.zeros(3, 3, dtype=ft.int64))
    with pytest.raises(RuntimeError, match="Explicit attn_mask should not be set when is_causal=True"):
        F.scaled_dot_product_attention(q, q, q, attn_mask=ft.ones(3, 3, dtype=ft.bool), is_causal=True)
    with pytest.raises(AssertionError, match="embed_dim must be divisible by num_heads"):
        ft.nn.MultiheadAttention(6, 4)
    mha = ft.nn.MultiheadAttention(4, 2)
    with pytest.raises(RuntimeError, match="Need attn_mask if specifying the is_causal hint"):
        mha(ft.randn(3, 1, 4), ft.randn(3, 1, 4), ft.randn(3, 1, 4), is_causal=True)
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        ft.nn.TransformerEncoderLayer(4, 2, activation="tanh")
    model = ft.nn.Transformer(4, 2, 1, 1, 8)
    with pytest.raises(RuntimeError, match="the batch number of src and tgt must be equal"):
        model(ft.randn(3, 2, 4), ft.randn(3, 1, 4))


def test_state_dict_keys_match_pytorch_names():
    mha = ft.nn.MultiheadAttention(8, 2, kdim=4, vdim=4, add_bias_kv=True)
    assert list(mha.state_dict()) == [
        "q_proj_weight",
        "k_proj_weight",
        "v_proj_weight",
        "in_proj_bias",
        "bias_k",
        "bias_v",
        "out_proj.weight",
        "out_proj.bias",
    ]
    layer = ft.nn.TransformerEncoderLayer(8, 2, 16)
    assert list(layer.state_dict()) == [
        "self_attn.in_proj_weight",
        "self_attn.in_proj_bias",
        "self_attn.out_proj.weight",
        "self_attn.out_proj.bias",
        "linear1.weight",
        "linear1.bias",
        "linear2.weight",
        "linear2.bias",
        "norm1.weight",
        "norm1.bias",
        "norm2.weight",
        "norm2.bias",
    ]


@needs_torch
def test_state_dicts_load_both_ways():
    tm = _torch.nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)
    fm = ft.nn.Transformer(8, 2, 1, 1, 16, dropout=0.0)
    assert list(tm.state_dict()) == list(fm.state_dict())
    fm.load_state_dict({k: ft.tensor(v.numpy()) for k, v in tm.state_dict().items()})
    src, tgt = _arrays(0, (5, 2, 8), (3, 2, 8))
    with _torch.no_grad():
        want = tm(_torch.tensor(src, dtype=_torch.float32), _torch.tensor(tgt, dtype=_torch.float32)).numpy()
    got = fm(ft.tensor(src, dtype=ft.float32), ft.tensor(tgt, dtype=ft.float32)).detach().numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)




def test_saved_layer_names_its_activation_function_as_pytorch_does(tmp_path):
    """A layer holding a function (``activation=F.relu``) is written with PyTorch's module
    name for it, so PyTorch can load the file (it used to say ``fgrad.torch.nn.functional``)."""
    import zipfile

    ft.save(ft.nn.TransformerEncoderLayer(8, 2, 16), tmp_path / "layer.pt")
    with zipfile.ZipFile(tmp_path / "layer.pt") as z:
        data = z.read(next(n for n in z.namelist() if n.endswith("data.pkl")))
    assert b"torch.nn.functional\nrelu" in data and b"fgrad" not in data
    back = ft.load(tmp_path / "layer.pt", weights_only=False)
    assert back.activation is ft.nn.functional.relu

@needs_torch
def test_whole_modules_pickle_both_ways(tmp_path):
    _torch.manual_seed(0)
    theirs = _torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    _torch.save(theirs, tmp_path / "theirs.pt")
    ours = ft.load(tmp_path / "theirs.pt", weights_only=False)
    assert type(ours) is ft.nn.TransformerEncoderLayer
    (x,) = _arrays(4, (5, 2, 8))
    want = theirs(_torch.tensor(x, dtype=_torch.float32)).detach().numpy()
    got = ours(ft.tensor(x, dtype=ft.float32)).detach().numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    ft.save(ours, tmp_path / "ours.pt")
    again = _torch.load(tmp_path / "ours.pt", weights_only=False)
    assert type(again) is _torch.nn.TransformerEncoderLayer
    back = again(_torch.tensor(x, dtype=_torch.float32)).detach().numpy()
    np.testing.assert_allclose(back, want, rtol=1e-5, atol=1e-5)

def test_generate_square_subsequent_mask_and_causal_detection():
    from fgrad.torch.nn.modules.transformer import _detect_is_causal_mask

    m = ft.nn.Transformer.generate_square_subsequent_mask(3)
    assert m.dtype == ft.float32
    assert np.array_equal(np.isinf(m.numpy()), np.triu(np.ones((3, 3), bool), 1))
    assert _detect_is_causal_mask(m, None, 3) is True
    assert _detect_is_causal_mask(ft.zeros(3, 3), None, 3) is False
    assert _detect_is_causal_mask(None, None, 3) is False



def test_docstring_examples_run():
    for name in ("fgrad.torch.nn._attention", "fgrad.torch.nn.modules.transformer"):
        res = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        assert res.failed == 0 and res.attempted > 0, name


def _regenerate() -> None:
    """Rewrite STORED (the last statement of this file) from PyTorch's numbers."""
    import pprint
    import re
    from pathlib import Path

    assert _torch is not None
    stored = {n: _fingerprint(CASES[n](_torch)) for n in sorted(CASES)}
    path = Path(__file__)
    text = re.sub(r"^STORED: dict = .*\Z", "STORED: dict = " + pprint.pformat(stored, width=110) + "\n",
                  path.read_text(), flags=re.S | re.M)
    path.write_text(text)


if __name__ == "__main__":
    _regenerate()

# PyTorch 2.13's numbers (generated by _regenerate)
STORED: dict = {'mha_batch_first': [[-7.717094612, 7.619696708],
                     [12.0, 2.949455203],
                     [1.630127398, 3.474000314],
                     [-0.0, 1.687286828],
                     [-1.90229367, 15.525556209],
                     [24.235069211, 268.448333555],
                     [-0.538234457, 41.222862742],
                     [1.72349823, 213.78224093],
                     [-0.620652922, 26.361707592]],
 'mha_bias_kv_zero_attn': [[0.753826305, 21.454944183],
                           [12.0, 2.566540081],
                           [0.776127391, 0.575589236],
                           [0.677037341, 0.769321155],
                           [-1.316899338, 0.933416782],
                           [1.023489366, 40.57846208],
                           [-0.464473616, 11.065925803],
                           [-0.197113578, 0.202934144],
                           [-0.035593815, 0.147432725],
                           [1.543536038, 31.526752162],
                           [-0.620652922, 26.361707592]],
 'mha_bool_attn_mask': [[-6.798207462, 12.947002434],
                        [12.0, 4.040585815],
                        [0.928936098, 0.967152189],
                        [0.0, 0.706353235],
                        [-1.90229367, 6.085842211],
                        [4.219333249, 123.202313832],
                        [-3.383587098, 27.055927649],
                        [3.526320713, 85.030797087],
                        [-0.620652922, 26.361707592]],
 'mha_causal_no_weights': [[0.386177618, 30.097722244],
                           [-2.586138617, 17.078254227],
                           [-10.505516097, 180.951310545],
                           [-2.10822675, 28.643046512],
                           [-3.391910971, 124.754463737],
                           [-0.620652922, 26.361707592]],
 'mha_float_attn_mask_3d': [[-7.275869367, 16.965897139],
                            [12.0, 3.234907649],
                            [-0.072840198, 0.955640346],
                            [-0.0, 1.256472243],
                            [-1.90229367, 6.887550961],
                            [-7.818077391, 136.988604503],
                            [-2.502800054, 26.948659311],
                            [-0.436654506, 78.203924394],
                            [-0.620652922, 26.361707592]],
 'mha_kdim_vdim': [[-9.594273301, 19.785909497],
                   [12.0, 2.573252222],
                   [0.386114173, 0.475247329],
                   [0.0, 0.546850503],
                   [-0.411524954, 0.249659297],
                   [-2.782258323, 5.754327724],
                   [0.500442237, 3.75996894],
                   [-1.46075594, 14.205500285],
                   [-3.023357314, 55.511332742],
                   [-0.349084711, 19.015100837],
                   [-0.620652922, 26.361707592]],
 'mha_key_padding_mask': [[-7.223053091, 12.633985175],
                          [12.0, 4.013065386],
                          [0.464564075, 1.206537265],
                          [-0.0, 1.003867562],
                          [-1.90229367, 3.446696075],
                          [5.763144355, 108.871051092],
                          [-2.365871923, 26.927396664],
                          [1.734308791, 54.465967787],
                          [-0.620652922, 26.361707592]],
 'mha_no_bias': [[-1.343332016, 9.352162897],
                 [12.0, 2.71568768],
                 [0.471308282, 2.727498309],
                 [0.0, 1.194549405],
                 [-1.89127659, 2.787269541],
                 [-17.929756502, 71.038258002],
                 [3.150157625, 31.291273289]],
 'mha_no_weights': [[-10.103761984, 20.490009432],
                    [0.635512739, 0.641716336],
                    [-0.0, 0.549359541],
                    [-1.90229367, 4.263683832],
                    [3.558645252, 83.11539185],
                    [-3.401769265, 27.020035752],
                    [-3.426156414, 116.201351736],
                    [-0.620652922, 26.361707592]],
 'mha_per_head_weights': [[-7.223053091, 12.633985175],
                          [24.0, 8.581458729],
                          [0.177444275, 1.568490747],
                          [-0.0, 0.905803572],
                          [-1.90229367, 3.446696075],
                          [6.442422109, 99.636579338],
                          [-2.0557725, 27.056833424],
                          [1.734308791, 54.465967787],
                          [-0.620652922, 26.361707592]],
 'mha_plain': [[-7.311267956, 11.20840453],
               [12.0, 2.876378673],
               [0.9141463, 0.83196095],
               [-0.0, 0.872337685],
               [-1.90229367, 2.816641044],
               [-1.857005388, 74.312406846],
               [-3.114932515, 27.091366331],
               [1.622166696, 47.207274227],
               [-0.620652922, 26.361707592]],
 'mha_unbatched': [[-5.232801577, 10.78655865],
                   [4.0, 0.94948834],
                   [1.952883351, 0.65376504],
                   [0.0, 1.505478441],
                   [-2.752326721, 6.716835975],
                   [17.495521068, 177.162412793],
                   [-6.728484568, 47.962725858],
                   [2.045131601, 224.15955909],
                   [0.414234711, 38.186201361]],
 'sdpa_bool_mask': [[10.668926652, 59.560762554],
                    [1.210091816, 5.998087275],
                    [0.0, 3.810420263],
                    [2.629935843, 14.752772445]],
 'sdpa_causal': [[-4.52894229, 67.495518605],
                 [-1.862523435, 11.532519509],
                 [0.0, 3.321026627],
                 [-0.735647177, 31.121925398]],
 'sdpa_causal_square': [[-0.317695451, 82.079898831],
                        [1.634991851, 18.020577521],
                        [-0.0, 9.096977401],
                        [0.675734182, 26.511916177]],
 'sdpa_float_mask': [[6.742267362, 54.790653966],
                     [-1.722306661, 11.525061526],
                     [0.0, 6.438033641],
                     [-0.735647177, 18.739068694]],
 'sdpa_gqa': [[-6.074297478, 60.404596538],
              [0.32134083, 9.607140433],
              [0.0, 4.231106959],
              [1.844303646, 16.580977775]],
 'sdpa_plain': [[7.584466905, 42.99962673],
                [-1.903630122, 11.198153213],
                [0.0, 5.286313689],
                [-0.735647177, 11.634460992]],
 'sdpa_scale': [[7.647785759, 46.857640542],
                [-1.331823851, 5.35954284],
                [-0.0, 3.380952626],
                [-0.735647177, 14.670018186]],
 'tf_decoder': [[7.078554636, 8.841662546],
                [-0.004294429, 0.000385097],
                [-0.034128348, 0.008517539],
                [0.009238772, 0.000842679],
                [-0.001178552, 9.6135e-05],
                [-0.0, 0.000249636],
                [-0.0, 5.6925e-05],
                [-0.032678251, 0.002646144],
                [0.006669124, 0.000513675],
                [-0.0, 0.012283952],
                [0.0, 0.002634826],
                [0.044227574, 0.018710973],
                [-0.011107081, 0.00572765],
                [0.0, 0.018647325],
                [0.0, 0.00207066],
                [0.093685908, 0.006821872],
                [0.011605822, 0.002675309],
                [0.27536074, 0.040905042],
                [-0.15870814, 0.010856597],
                [0.10982873, 0.063876806],
                [0.026112272, 0.022055664],
                [0.121162252, 0.004838951],
                [-0.018815285, 0.002638265],
                [0.0, 0.021628969],
                [0.0, 0.016890347],
                [-0.897941842, 0.242097326],
                [-0.449606022, 0.123997866],
                [0.0, 0.141076958],
                [-0.0, 0.161383947],
                [-2.139244229, 1.002844729],
                [-1.126154707, 0.597420639],
                [-0.0, 0.632963774],
                [0.0, 1.057173344],
                [-0.80790397, 0.19046618],
                [-0.054314852, 0.157205689],
                [-2.400527, 1.324086349],
                [0.113142293, 1.216219166],
                [-1.720303074, 3.473958676],
                [1.157392693, 4.948456944]],
 'tf_decoder_norm_first': [[7.936369295, 198.723279992],
                           [1.157392693, 28.219205508],
                           [-2.007812634, 1.046048006],
                           [-3.139292757, 5.689929657],
                           [1.24624543, 2.720599331],
                           [3.535600794, 8.008004834],
                           [1.157392693, 4.340917827],
                           [0.075967475, 13.86153309],
                           [-0.402947694, 5.47130803],
                           [2.571942871, 10.392021589],
                           [1.157392693, 4.663260625],
                           [5.733319345, 13.718792641],
                           [-2.382507245, 5.006394215],
                           [2.426452898, 15.393565539],
                           [1.157392693, 4.626491731],
                           [-0.776958065, 3.103353667],
                           [-0.089806172, 4.188090229],
                           [0.357522853, 0.331382668],
                           [-0.132263899, 0.410847856],
                           [-1.044414215, 18.001766358],
                           [4.268081137, 4.88214685],
                           [-0.916636872, 2.156117657],
                           [1.932708698, 1.130875831],
                           [1.298283019, 9.733461707],
                           [1.157392693, 4.856070726],
                           [-3.40340961, 6.557344589],
                           [-1.971959163, 1.971430421],
                           [-0.908971527, 5.341465782],
                           [1.157392693, 4.827093022],
                           [-0.282218106, 2.814787844],
                           [-0.504368013, 1.922227797],
                           [2.138432165, 6.01900706],
                           [1.157392693, 4.948456944],
                           [1.653448526, 1.428236949],
                           [-1.763492563, 1.013453342],
                           [-0.403430104, 0.19536637],
                           [-0.523622567, 0.086806783],
                           [-1.847698236, 4.243583772],
                           [-1.767128546, 1.551109702]],
 'tf_encoder': [[15.217676967, 19.821292959],
                [0.038468033, 0.032850263],
                [0.109983263, 0.274651693],
                [-0.006536672, 0.002174282],
                [0.0, 0.03561317],
                [0.0, 0.004554033],
                [0.012883708, 0.629466547],
                [-0.25182852, 0.281603148],
                [0.0, 1.226004037],
                [0.0, 0.006774159],
                [-0.43749344, 0.281467045],
                [0.478336705, 0.452413664],
                [0.24980848, 0.205280444],
                [0.094375951, 0.092667961],
                [-0.434767563, 0.164893781],
                [-0.309144085, 0.089771795],
                [0.0, 0.123195403],
                [-0.0, 0.106003253],
                [0.291906513, 0.424008787],
                [0.767694223, 0.271727274],
                [-0.0, 1.088026027],
                [-0.0, 0.23340458],
                [0.565386578, 0.313040703],
                [-0.052119649, 0.384367475],
                [1.546862984, 0.570323942],
                [-0.0, 0.291087305],
                [-1.243815138, 1.244583547],
                [-0.64100771, 2.514557058]],
 'tf_encoder_callable': [[14.891071674, 17.963680222],
                         [-0.082067595, 0.068943706],
                         [0.240505338, 0.635536318],
                         [0.019845276, 0.0065293],
                         [-0.0, 0.08698455],
                         [0.0, 0.003137041],
                         [0.363641272, 0.402960266],
                         [-0.14968848, 0.047101887],
                         [0.0, 1.678594233],
                         [-0.0, 0.028708949],
                         [-0.771442278, 0.59635649],
                         [0.081748662, 0.131043989],
                         [-0.057579335, 0.433928873],
                         [-0.043416011, 0.146228342],
                         [-0.480194245, 0.157441429],
                         [-0.264738833, 0.081145965],
                         [0.0, 0.093197659],
                         [0.0, 0.14566389],
                         [0.753208533, 0.350438017],
                         [0.55842177, 0.17894557],
                         [0.0, 0.80708408],
                         [0.0, 0.2985236],
                         [-0.327568884, 0.629680544],
                         [-0.087458957, 0.314088439],
                         [2.015034835, 0.871374728],
                         [-0.0, 0.244909344],
                         [-1.233038639, 1.29125811],
                         [-0.64100771, 2.514557058]],
 'tf_encoder_gelu': [[15.045368658, 18.518661796],
                     [-0.062008208, 0.062341547],
                     [0.212796214, 0.600246271],
                     [0.013735672, 0.005672308],
                     [0.0, 0.077416001],
                     [-0.0, 0.00257158],
                     [0.372105218, 0.533849893],
                     [-0.18697927, 0.098276922],
                     [0.0, 1.790596923],
                     [0.0, 0.019147366],
                     [-0.762257763, 0.531121387],
                     [0.08200768, 0.190945662],
                     [0.096092497, 0.308700684],
                     [0.001252662, 0.099698155],
                     [-0.448866933, 0.145695412],
                     [-0.24669076, 0.065706214],
                     [-0.0, 0.085838228],
                     [0.0, 0.103082831],
                     [0.663777221, 0.402321598],
                     [0.667737402, 0.234971203],
                     [-0.0, 1.022654277],
                     [-0.0, 0.30945937],
                     [-0.055999836, 0.400538548],
                     [-0.188793978, 0.294071245],
                     [1.886230566, 0.79406027],
                     [0.0, 0.263704574],
                     [-1.283468622, 1.213850541],
                     [-0.64100771, 2.514557058]],
 'tf_encoder_norm_first': [[8.343940307, 16.782895013],
                           [-0.0, 2.137047529],
                           [0.685219018, 1.359428798],
                           [0.209277367, 0.993778844],
                           [0.0, 1.142639867],
                           [-0.0, 0.963439436],
                           [-0.041573577, 0.747060404],
                           [-0.024312329, 0.413988678],
                           [-0.0, 1.204275061],
                           [-0.0, 0.49206407],
                           [0.900207648, 0.551981429],
                           [-0.592496406, 0.310570777],
                           [0.903550343, 1.195499015],
                           [0.552346507, 0.530948311],
                           [-0.003174081, 0.7127092],
                           [-0.24874148, 0.392272927],
                           [0.0, 0.795204842],
                           [-0.0, 0.565597651],
                           [0.265552529, 1.464059151],
                           [-0.382038748, 0.213625155],
                           [0.0, 7.05433353],
                           [0.0, 0.102481509],
                           [0.682298999, 0.660912252],
                           [0.577667341, 0.301707606],
                           [0.215495422, 0.463554717],
                           [-0.414849103, 0.16596747],
                           [2.666522931, 39.896505219],
                           [-0.64100771, 2.514557058]],
 'tf_transformer': [[-5.220110325, 7.470454732],
                    [0.005934512, 0.000292183],
                    [7.304e-05, 8.433e-06],
                    [0.01895061, 0.002554708],
                    [-0.01073108, 0.000327657],
                    [-0.0, 0.001359338],
                    [-0.0, 0.000303201],
                    [-0.017165628, 0.000385344],
                    [-0.004242159, 0.000507555],
                    [0.0, 0.001054422],
                    [0.0, 0.001697727],
                    [-0.020054721, 0.002897385],
                    [-0.034173539, 0.00299175],
                    [-0.000826613, 0.003181245],
                    [0.0, 0.003082345],
                    [-0.064395177, 0.010481281],
                    [-0.142620641, 0.023472714],
                    [0.001256814, 1.0668e-05],
                    [-0.001204803, 7.26e-07],
                    [-0.0, 1.7051e-05],
                    [-0.0, 4.459e-06],
                    [0.003959214, 7.965e-06],
                    [-0.006376133, 7.637e-06],
                    [-0.0, 1.0363e-05],
                    [-0.0, 1.1654e-05],
                    [-0.00174457, 1.1772e-05],
                    [-0.001585481, 2.0199e-05],
                    [-0.0, 8.0342e-05],
                    [-0.0, 9.4228e-05],
                    [0.003371892, 1.1961e-05],
                    [-2.627e-05, 1.157e-05],
                    [-0.019738381, 0.000141451],
                    [0.001180989, 0.000112267],
                    [0.036804247, 0.000941586],
                    [-0.002343637, 0.000627878],
                    [-6.9589e-05, 0.000516598],
                    [0.004132008, 0.00039629],
                    [-0.0, 0.003301915],
                    [0.0, 0.001038033],
                    [-0.001187567, 0.049401845],
                    [0.037550268, 0.0558841],
                    [-0.0, 0.105187518],
                    [-0.0, 0.0718972],
                    [-0.894778118, 0.111847417],
                    [-0.452110785, 0.057959976],
                    [-0.0, 0.147826081],
                    [-0.0, 0.22056427],
                    [0.543678838, 0.106367803],
                    [-0.000709406, 0.071665422],
                    [0.152006534, 0.174975871],
                    [-0.128001749, 0.184560341],
                    [0.514665567, 0.196721503],
                    [0.0, 1.375648879],
                    [-5.337939934, 6.717084105],
                    [1.157392693, 4.948456944]]}


def test_sdpa_causal_bias_is_made_once_per_shape_and_never_changes():
    # the causal bias is a cached constant: calls with other shapes, dtypes and an in-place
    # change of a result leave the next call's numbers as the first call's
    rng = np.random.default_rng(5)
    q32 = ft.tensor(rng.standard_normal((1, 2, 3, 4)), dtype=ft.float32)
    q64 = ft.tensor(rng.standard_normal((1, 2, 3, 5)), dtype=ft.float64)
    F = ft.nn.functional
    first = F.scaled_dot_product_attention(q32, q32, q32, is_causal=True)
    other = F.scaled_dot_product_attention(q64, q64, q64, is_causal=True)
    other.add_(1.0)
    again = F.scaled_dot_product_attention(q32, q32, q32, is_causal=True)
    np.testing.assert_array_equal(first.numpy(), again.numpy())
    # query i attends to keys 0..i: the first query row is value row 0
    np.testing.assert_array_equal(first[..., 0, :].numpy(), q32[..., 0, :].numpy())
    assert again.dtype == ft.float32 and other.dtype == ft.float64
