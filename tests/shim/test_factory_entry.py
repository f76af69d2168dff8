"""The creation functions' fast entry (`fgrad.torch._errors._factory_entry`, round 23): a call
with plain arguments and at most ``dtype``/``requires_grad`` runs the creation function itself;
it gives what the general entry (the ``__torch_function__`` checks and the "meta" wrapper)
gives: values, random streams, dtypes, errors; modes, subclasses and "meta" still take over."""
import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch import _errors

# each call, and the same call forced through the general entry by a keyword the fast entry
# leaves to it (``layout=None``: no effect on the result)
CALLS = [
    ("zeros", (4,), {}), ("zeros", (2, 3), {}), ("zeros", ((2, 3),), {"dtype": torch.float64}),
    ("ones", (2, 3), {}), ("ones", ([3],), {"dtype": torch.int32}), ("empty", (0, 2), {}),
    ("full", ((3,), 2.0), {}), ("full", ((2, 2), 7), {}), ("full", ((2,), True), {}),
    ("rand", (4,), {}), ("rand", (2, 3), {"dtype": torch.float64}), ("randn", (5,), {}),
    ("randint", (0, 10, (6,)), {}), ("randint", (10, (1,)), {}), ("randperm", (7,), {}),
    ("zeros", (3,), {"requires_grad": True}), ("zeros", (2,), {"device": "cpu"}),
    ("rand", (3,), {"device": torch.device("cpu")}), ("ones", (2,), {"device": None}),
]


class _Through(torch.overrides.TorchFunctionMode):
    """A mode that runs each call as made (its calls take the general entry)."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        return func(*args, **(kwargs or {}))


def _run(calls, force_general: bool):
    torch.manual_seed(3)
    out = []
    for name, args, kwargs in calls:
        extra = {"layout": None} if force_general else {}
        out.append(getattr(torch, name)(*args, **kwargs, **extra))
    return out


def test_fast_entry_is_the_general_entry():
    fast, general = _run(CALLS, False), _run(CALLS, True)
    for (name, _, _), a, b in zip(CALLS, fast, general):
        assert a.dtype == b.dtype and a.shape == b.shape and a.requires_grad == b.requires_grad, name
        assert type(a) is torch.Tensor and not a.is_meta, name
        np.testing.assert_array_equal(a.detach().numpy(), b.detach().numpy(), err_msg=name)


def test_fast_entry_skips_the_general_entry(monkeypatch):
    """The plain calls do not reach the general entry (the point of the fast entry); others do."""
    calls = []
    raw = torch.zeros.__wrapped__.__fgrad_factory__

    def counting(*args, **kwargs):
        calls.append(args)
        return raw(*args, **kwargs)

    monkeypatch.setattr(torch.zeros.__wrapped__, "__fgrad_factory__", counting)
    entry = _errors.public(torch.zeros.__wrapped__, "zeros")
    entry(2, dtype=torch.float64)
    entry(3, device="cpu")
    assert calls == [(2,), (3,)]
    entry(2, layout=None)  # general: through the "meta" wrapper, which calls zeros itself
    assert entry(2, device="meta").is_meta  # general: the "meta" wrapper
    assert calls == [(2,), (3,)]


@pytest.mark.parametrize("make, error", [
    (lambda: torch.zeros("a"), TypeError),
    (lambda: torch.zeros(-1), RuntimeError),
    (lambda: torch.ones(2, 3.0), TypeError),
    (lambda: torch.zeros(2, dtype=torch.int64, requires_grad=True), RuntimeError),
    (lambda: torch.rand(2, dtype=torch.int64), NotImplementedError),
    (lambda: torch.randint(5, 1, (2,)), RuntimeError),
    (lambda: torch.full((2,), 1e300, dtype=torch.float32), RuntimeError),
    (lambda: torch.zeros(2, dtype="float32"), TypeError),
])
def test_fast_entry_errors_are_the_general_errors(make, error):
    with pytest.raises(error) as fast:
        make()
    with pytest.raises(error) as general:  # the same call under an empty mode: the general entry
        with _Through():
            make()
    assert str(fast.value) == str(general.value)


def test_modes_and_meta_still_take_factories():
    seen = []

    class Spy(torch.overrides.TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            seen.append(func)
            return func(*args, **(kwargs or {}))

    with Spy():
        torch.zeros(2)
        torch.rand(3)
    assert seen == [torch.zeros, torch.rand]
    state = torch.random.get_rng_state()
    with torch.device("meta"):
        m = torch.rand(3)
    explicit = torch.rand(3, device="meta")
    assert m.is_meta and explicit.is_meta and torch.equal(torch.random.get_rng_state(), state)
