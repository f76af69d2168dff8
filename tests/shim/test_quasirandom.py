"""``torch.quasirandom.SobolEngine``: PyTorch's points bit for bit (stored below; live when
PyTorch is installed), the Sobol' properties that hold whatever the implementation
(stratification, chunked draws equal one draw, fast_forward equals drawing), errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad.torch as ftorch

SobolEngine = ftorch.quasirandom.SobolEngine

# PyTorch 2.13: SobolEngine(4).draw(6, dtype=torch.float64)
PLAIN_4D = [[0.0, 0.0, 0.0, 0.0], [0.5, 0.5, 0.5, 0.5], [0.75, 0.25, 0.25, 0.25],
            [0.25, 0.75, 0.75, 0.75], [0.375, 0.375, 0.625, 0.875], [0.875, 0.875, 0.125, 0.375]]
# PyTorch 2.13: SobolEngine(3, scramble=True, seed=0).draw(3, dtype=torch.float64); the first
# point is divided in float32 (PyTorch's default dtype) before it is converted
SCRAMBLED_3D = [[0.47510719299316406, 0.592523992061615, 0.4944792091846466],
                [0.6355292368680239, 0.17165081854909658, 0.8551316680386662],
                [0.9233333831652999, 0.7557031977921724, 0.11520141456276178]]
# PyTorch 2.13: SobolEngine(21201).draw(64)[63, -5:]
LAST_DIMS_ROW_63 = [0.734375, 0.421875, 0.203125, 0.015625, 0.109375]


def test_stored_plain_and_scrambled_points():
    np.testing.assert_array_equal(SobolEngine(4).draw(6, dtype=ftorch.float64).numpy(), PLAIN_4D)
    got = SobolEngine(3, scramble=True, seed=0).draw(3, dtype=ftorch.float64).numpy()
    np.testing.assert_array_equal(got, SCRAMBLED_3D)


def test_stored_highest_dimensions():
    got = SobolEngine(21201).draw(64)
    assert got.dtype == ftorch.float32 and tuple(got.shape) == (64, 21201)
    np.testing.assert_array_equal(got[63, -5:].numpy(), LAST_DIMS_ROW_63)


@pytest.mark.parametrize("scramble", [False, True])
@pytest.mark.parametrize("dim", [1, 2, 7, 40])
def test_stratified_in_every_dimension(dim, scramble):
    # a (0, m, 1) net in each dimension: 2**m points put one in each interval [k/2**m, (k+1)/2**m)
    pts = SobolEngine(dim, scramble=scramble, seed=3).draw_base2(6, dtype=ftorch.float64).numpy()
    cells = np.floor(pts * 64).astype(int)
    for d in range(dim):
        assert sorted(cells[:, d]) == list(range(64))


@settings(max_examples=25, deadline=None)
@given(dim=st.integers(1, 30), scramble=st.booleans(),
       chunks=st.lists(st.integers(1, 20), min_size=1, max_size=5), skip=st.integers(0, 40))
def test_chunked_draws_and_fast_forward_equal_one_draw(dim, scramble, chunks, skip):
    n = skip + sum(chunks)
    total = SobolEngine(dim, scramble=scramble, seed=11).draw(n, dtype=ftorch.float64).numpy()
    eng = SobolEngine(dim, scramble=scramble, seed=11)
    eng.fast_forward(skip)
    parts = [eng.draw(n, dtype=ftorch.float64).numpy() for n in chunks]
    got = np.concatenate(parts)
    if skip == 0 and scramble:  # the first point goes through float32 as in PyTorch
        np.testing.assert_array_equal(got[1:], total[1:])
        np.testing.assert_allclose(got[0], total[0], rtol=1e-7)
    else:
        np.testing.assert_array_equal(got, total[skip:])
    assert eng.num_generated == skip + sum(chunks)
    eng.reset()
    again = eng.draw(n, dtype=ftorch.float64).numpy()
    np.testing.assert_array_equal(again[1:], total[1:])


def test_out_repr_and_errors():
    out = ftorch.empty(0)
    res = SobolEngine(2).draw(3, out=out)
    assert res is out and tuple(out.shape) == (3, 2)
    assert repr(SobolEngine(5, scramble=True, seed=2)) == "SobolEngine(dimension=5, scramble=True, seed=2)"
    with pytest.raises(ValueError, match=r"dimensionality for SobolEngine is \[1, 21201\]"):
        SobolEngine(0)
    with pytest.raises(ValueError, match=r"dimensionality for SobolEngine is \[1, 21201\]"):
        SobolEngine(21202)
    eng = SobolEngine(2)
    eng.draw(3)
    with pytest.raises(ValueError, match=r"n=3\+2\*\*2=7"):
        eng.draw_base2(2)


def test_unseeded_scrambling_draws_from_the_global_generator():
    ftorch.manual_seed(5)
    a = SobolEngine(3, scramble=True).draw(4)
    ftorch.manual_seed(5)
    b = SobolEngine(3, scramble=True).draw(4)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert not np.array_equal(a.numpy(), SobolEngine(3, scramble=True).draw(4).numpy())


@pytest.mark.parametrize("seed", [0, 1, 123])
@pytest.mark.parametrize("dim", [1, 3, 17, 300])
def test_live_against_pytorch(dim, seed):
    torch = pytest.importorskip("torch")
    for scramble in (False, True):
        a = torch.quasirandom.SobolEngine(dim, scramble=scramble, seed=seed)
        b = SobolEngine(dim, scramble=scramble, seed=seed)
        np.testing.assert_array_equal(a.sobolstate.numpy(), b.sobolstate.numpy())
        np.testing.assert_array_equal(a.shift.numpy(), b.shift.numpy())
        np.testing.assert_array_equal(a.draw(5).numpy(), b.draw(5).numpy())
        a.fast_forward(7)
        b.fast_forward(7)
        np.testing.assert_array_equal(a.draw(9, dtype=torch.float64).numpy(),
                                      b.draw(9, dtype=ftorch.float64).numpy())
        a.reset()
        b.reset()
        np.testing.assert_array_equal(a.draw_base2(4).numpy(), b.draw_base2(4).numpy())
    torch.manual_seed(seed)
    ftorch.manual_seed(seed)
    a = torch.quasirandom.SobolEngine(dim, scramble=True).draw(3)
    b = SobolEngine(dim, scramble=True).draw(3)
    np.testing.assert_array_equal(a.numpy(), b.numpy())
    assert torch.rand(1).item() == ftorch.rand(1).item()  # both generators moved alike
