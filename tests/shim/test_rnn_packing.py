"""nn.utils.rnn (pad_sequence, pack_padded_sequence, pad_packed_sequence, pack_sequence) and
PackedSequence inputs to RNN / LSTM / GRU: outputs, final states and gradients equal
PyTorch's (live, and stored fingerprints; regenerate: python tests/shim/test_rnn_packing.py)."""

from __future__ import annotations

import doctest
import importlib

import numpy as np
import pytest

import fgrad.torch as ft

try:
    import torch as _torch
except Exception:  # noqa: BLE001
    _torch = None

needs_torch = pytest.mark.skipif(_torch is None, reason="torch is not installed")
LENGTHS = [3, 5, 1, 5, 2]  # unsorted, with a tie


def _sequences(lib, feat=3):
    rng = np.random.default_rng(0)
    return [lib.tensor(rng.standard_normal((n, feat)), requires_grad=True) for n in LENGTHS]


def _pack_case(lib, batch_first):
    seqs = _sequences(lib)
    padded = lib.nn.utils.rnn.pad_sequence(seqs, batch_first=batch_first, padding_value=-1.0)
    packed = lib.nn.utils.rnn.pack_padded_sequence(
        padded, LENGTHS, batch_first=batch_first, enforce_sorted=False
    )
    back, lengths = lib.nn.utils.rnn.pad_packed_sequence(packed, batch_first=batch_first, total_length=6)
    return seqs, padded, packed, back, lengths


@needs_torch
@pytest.mark.parametrize("batch_first", [False, True])
def test_packing_matches_torch(batch_first):
    ours, theirs = _pack_case(ft, batch_first), _pack_case(_torch, batch_first)
    for i in (1, 3, 4):
        np.testing.assert_array_equal(ours[i].detach().numpy(), theirs[i].detach().numpy())
    for field in ("data", "batch_sizes", "sorted_indices", "unsorted_indices"):
        np.testing.assert_array_equal(
            getattr(ours[2], field).detach().numpy(),
            getattr(theirs[2], field).detach().numpy(),
            err_msg=field,
        )
    seq = ft.nn.utils.rnn.pack_sequence([s.detach() for s in ours[0]], enforce_sorted=False)
    tseq = _torch.nn.utils.rnn.pack_sequence([s.detach() for s in theirs[0]], enforce_sorted=False)
    np.testing.assert_array_equal(seq.data.numpy(), tseq.data.numpy())
    unpacked = ft.nn.utils.rnn.unpack_sequence(seq)
    assert [u.shape[0] for u in unpacked] == LENGTHS


def test_packing_errors_and_gradient_flow():
    R = ft.nn.utils.rnn
    seqs = _sequences(ft)
    with pytest.raises(RuntimeError, match="`lengths` array must be sorted in decreasing order"):
        R.pack_padded_sequence(R.pad_sequence(seqs), LENGTHS)
    with pytest.raises(RuntimeError, match="Expected `len\\(lengths\\)` to be equal to batch_size"):
        R.pack_padded_sequence(R.pad_sequence(seqs), [3, 2], enforce_sorted=False)
    packed = R.pack_sequence(seqs, enforce_sorted=False)
    (packed.data * 2).sum().backward()
    assert all(bool((s.grad == 2).all()) for s in seqs)


def _set_params(lib, module, seed=3):
    rng = np.random.default_rng(seed)
    with lib.no_grad():
        for _, p in module.named_parameters():
            p.copy_(lib.tensor(0.4 * rng.standard_normal(tuple(p.shape)), dtype=p.dtype))


def _run_rnn(lib, kind, batch_first, bidirectional, with_hx):
    layer = getattr(lib.nn, kind)(
        3, 4, num_layers=2, batch_first=batch_first, bidirectional=bidirectional, dtype=lib.float64
    )
    _set_params(lib, layer)
    seqs = _sequences(lib)
    padded = lib.nn.utils.rnn.pad_sequence(seqs, batch_first=batch_first)
    packed = lib.nn.utils.rnn.pack_padded_sequence(
        padded, LENGTHS, batch_first=batch_first, enforce_sorted=False
    )
    hx = None
    if with_hx:
        rng = np.random.default_rng(9)
        d = 2 if bidirectional else 1
        h0 = lib.tensor(rng.standard_normal((2 * d, len(LENGTHS), 4)), requires_grad=True)
        hx = (h0, lib.tensor(rng.standard_normal((2 * d, len(LENGTHS), 4)))) if kind == "LSTM" else h0
    out, state = layer(packed, hx)
    states = list(state) if kind == "LSTM" else [state]
    assert isinstance(out, lib.nn.utils.rnn.PackedSequence)
    padded_out, _ = lib.nn.utils.rnn.pad_packed_sequence(out, batch_first=batch_first)
    results = [padded_out, *states]
    loss = sum(
        (r * lib.tensor(np.cos(np.arange(r.numel()) * 0.3).reshape(tuple(r.shape)))).sum() for r in results
    )
    wrt = seqs + [p for _, p in layer.named_parameters()]
    grads = lib.autograd.grad(loss, wrt)
    return [r.detach().numpy() for r in results] + [g.numpy() for g in grads]


RNN_CASES = {
    f"{kind}_{'bf' if bf else 'tm'}_{'bi' if bi else 'uni'}{'_hx' if hx else ''}": (kind, bf, bi, hx)
    for kind, bf, bi, hx in [
        ("LSTM", False, False, False),
        ("LSTM", True, True, True),
        ("GRU", True, False, True),
        ("GRU", False, True, False),
        ("RNN", False, True, True),
        ("RNN", True, False, False),
    ]
}


def _fingerprint(arrays):
    return [[round(float(a.sum()), 10), round(float((a * a).sum()), 10)] for a in arrays]


@needs_torch
@pytest.mark.parametrize("case", sorted(RNN_CASES))
def test_recurrent_layers_on_packed_input_match_torch(case):
    ours, theirs = _run_rnn(ft, *RNN_CASES[case]), _run_rnn(_torch, *RNN_CASES[case])
    for i, (a, b) in enumerate(zip(ours, theirs)):
        np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12, err_msg=f"{case}: result {i}")


@pytest.mark.parametrize("case", sorted(RNN_CASES))
def test_recurrent_layers_on_packed_input_match_stored_torch_numbers(case):
    got = _fingerprint(_run_rnn(ft, *RNN_CASES[case]))
    np.testing.assert_allclose(got, STORED[case], rtol=1e-8, atol=1e-9)


def test_docstring_examples_run():
    res = doctest.testmod(importlib.import_module("fgrad.torch.nn.utils.rnn"), optionflags=doctest.ELLIPSIS)
    assert res.failed == 0 and res.attempted > 0


def _regenerate() -> None:
    """Rewrite STORED (the last statement of this file) from PyTorch's numbers."""
    import pprint
    import re
    from pathlib import Path

    assert _torch is not None
    stored = {c: _fingerprint(_run_rnn(_torch, *RNN_CASES[c])) for c in sorted(RNN_CASES)}
    path = Path(__file__)
    text = re.sub(
        r"^STORED: dict = .*\Z",
        "STORED: dict = " + pprint.pformat(stored, width=110) + "\n",
        path.read_text(),
        flags=re.S | re.M,
    )
    path.write_text(text)


if __name__ == "__main__":
    _regenerate()

# PyTorch 2.13's numbers (generated by _regenerate)
STORED: dict = {'GRU_bf_uni_hx': [[-6.2553244704, 9.4216770326],
                   [-4.2990465154, 11.0753613738],
                   [0.9212022736, 0.6563598161],
                   [-0.0028600635, 0.0815359941],
                   [-0.4061256664, 0.0842944024],
                   [-0.1175511674, 1.0030922869],
                   [0.5483868259, 0.1374637895],
                   [0.1521112725, 7.8130802187],
                   [1.374378425, 3.105463416],
                   [-0.2724057623, 2.0260359039],
                   [0.1095284822, 1.225772294],
                   [-1.0016924114, 40.7914505547],
                   [-0.0451173631, 9.3803726343],
                   [0.5112227417, 1.7825441569],
                   [0.4356052731, 0.633528503]],
 'GRU_tm_bi': [[12.2502388393, 9.9796152181],
               [6.5455176953, 9.3703689663],
               [2.0919208691, 3.8200475265],
               [0.6440377447, 1.8837734235],
               [-0.2924593716, 0.0955455538],
               [0.8326369183, 1.9097350411],
               [-0.0732355355, 0.2804768982],
               [6.6653980081, 18.0697253135],
               [0.9084332436, 2.474068961],
               [-6.9555796622, 37.4932940721],
               [-3.5094317735, 9.4380002487],
               [9.3775018054, 24.6070590395],
               [-0.0195879321, 0.8066429299],
               [7.7925239756, 42.4258567363],
               [1.3124634513, 4.9931068728],
               [-6.0255652473, 48.6262320659],
               [0.4025984449, 2.2804175725],
               [12.2723411078, 59.3090338676],
               [4.9617282451, 17.6378510195],
               [3.7975277704, 24.5227420069],
               [-1.6311552926, 1.4828360449],
               [-4.8709334048, 15.7693824372],
               [-1.7900009876, 2.8541860327]],
 'LSTM_bf_bi_hx': [[1.8728684743, 8.1175494591],
                   [4.7668089349, 4.1433105554],
                   [8.6315020978, 14.8015165054],
                   [3.2784224824, 2.4379658025],
                   [0.2548046776, 0.3331053662],
                   [-1.5645990467, 2.0079451933],
                   [-2.8091530856, 2.038604066],
                   [1.0147553188, 0.5238252522],
                   [1.0676141082, 14.9242948762],
                   [2.381440398, 13.6069671908],
                   [-2.4920796662, 0.9460318476],
                   [-2.4920796662, 0.9460318476],
                   [6.4036865503, 9.9700627529],
                   [1.7499216542, 15.8780588499],
                   [0.5654330008, 2.3821919973],
                   [0.5654330008, 2.3821919973],
                   [-2.7635555629, 11.6239363777],
                   [-4.0343871723, 9.4265329045],
                   [0.17670487, 5.8750776876],
                   [0.17670487, 5.8750776876],
                   [-1.2663624718, 3.508582278],
                   [1.4406361515, 6.4315247401],
                   [0.9556217151, 4.4381903502],
                   [0.9556217151, 4.4381903502]],
 'LSTM_tm_uni': [[-3.9892843933, 1.6368243565],
                 [-0.8072414931, 1.274479098],
                 [-3.740102051, 6.8632459401],
                 [3.4725172337, 1.9345832408],
                 [0.6122826188, 0.0584673539],
                 [-1.4256924469, 0.9657053917],
                 [-3.1759338925, 1.9072743082],
                 [0.5857483061, 0.1488904802],
                 [4.243970386, 13.647312171],
                 [-0.2304129998, 0.9369333343],
                 [-1.5123417823, 1.4987440886],
                 [-1.5123417823, 1.4987440886],
                 [-0.774431212, 0.8013529844],
                 [-0.2046267414, 0.1427992171],
                 [2.1702926147, 1.2416247099],
                 [2.1702926147, 1.2416247099]],
 'RNN_bf_uni': [[-12.4203117246, 16.5773494948],
                [-5.2980507152, 18.3793085761],
                [-2.0760696236, 5.5944184849],
                [-0.0696584524, 1.5894137544],
                [0.7876543137, 0.4800291219],
                [1.9713187579, 6.1876931829],
                [-1.2817271848, 0.750214883],
                [7.5789617198, 28.0538658358],
                [0.2217827337, 14.779785874],
                [-5.2781208323, 16.3755282322],
                [-5.2781208323, 16.3755282322],
                [-6.5149418522, 44.342343833],
                [0.3797786776, 5.6557978197],
                [8.7288192642, 23.7753667526],
                [8.7288192642, 23.7753667526]],
 'RNN_tm_bi_hx': [[11.2198760113, 63.9324135147],
                  [5.0020237389, 44.7713933266],
                  [2.5777276409, 14.8402464966],
                  [-4.5955454047, 5.8558085787],
                  [-0.7154034826, 0.5652246906],
                  [-0.2638808276, 2.1124477808],
                  [0.8389169596, 1.9078687182],
                  [8.6987875042, 43.4847702213],
                  [6.0120395021, 42.5115284104],
                  [3.1689166916, 5.7983825225],
                  [3.1689166916, 5.7983825225],
                  [-4.6036866306, 11.5108030298],
                  [1.7482210508, 21.5616656361],
                  [-3.4805098648, 13.6965649747],
                  [-3.4805098648, 13.6965649747],
                  [-4.6462393908, 388.7285131285],
                  [-13.3944694932, 31.5036652257],
                  [11.6856030742, 70.1898002959],
                  [11.6856030742, 70.1898002959],
                  [-4.5149059686, 131.8477671729],
                  [-13.2710674443, 73.5259135253],
                  [-6.9233372967, 21.7311738209],
                  [-6.9233372967, 21.7311738209]]}


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("side", ["right", "left"])
def test_padding_and_packing_move_each_value_and_its_gradient_once(batch_first, side):
    # pad_sequence, pack_padded_sequence and pad_packed_sequence are gathers of rows: every
    # element lands where PyTorch puts it, and its gradient is the weight at that place
    rng = np.random.default_rng(1)
    seqs = [ft.tensor(rng.standard_normal((n, 2, 3)), requires_grad=True) for n in LENGTHS]
    padded = ft.nn.utils.rnn.pad_sequence(seqs, batch_first=batch_first, padding_value=7.0,
                                          padding_side=side)
    T = max(LENGTHS)
    p = padded.detach().numpy() if batch_first else padded.detach().numpy().swapaxes(0, 1)
    for b, (s, n) in enumerate(zip(seqs, LENGTHS)):
        lo = 0 if side == "right" else T - n
        np.testing.assert_array_equal(p[b, lo:lo + n], s.detach().numpy())
        assert (np.delete(p[b], np.arange(lo, lo + n), 0) == 7.0).all()
    if side == "left":
        return
    packed = ft.nn.utils.rnn.pack_padded_sequence(padded, LENGTHS, batch_first=batch_first,
                                                  enforce_sorted=False)
    back, lengths = ft.nn.utils.rnn.pad_packed_sequence(packed, batch_first=batch_first,
                                                        padding_value=-3.0, total_length=T + 1)
    assert lengths.tolist() == LENGTHS
    w = rng.standard_normal(tuple(back.shape))
    (back * ft.tensor(w)).sum().backward()
    wb = w if batch_first else w.swapaxes(0, 1)
    bb = back.detach().numpy() if batch_first else back.detach().numpy().swapaxes(0, 1)
    for b, (s, n) in enumerate(zip(seqs, LENGTHS)):
        np.testing.assert_array_equal(bb[b, :n], s.detach().numpy())
        assert (bb[b, n:] == -3.0).all()
        np.testing.assert_array_equal(s.grad.numpy(), wb[b, :n])
