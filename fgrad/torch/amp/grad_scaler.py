"""``torch.amp.GradScaler``: loss scaling for float16 training.  ``scale(loss)`` multiplies
the loss by the scale, ``unscale_(optimizer)`` divides the gradients back and records whether
any is inf/NaN, ``step(optimizer)`` skips the step when one was, and ``update()`` halves the
scale after a skipped step or doubles it after ``growth_interval`` clean ones.

Example::

    >>> import fgrad.torch as torch
    >>> w = torch.nn.Parameter(torch.ones(2))
    >>> opt = torch.optim.SGD([w], lr=0.1)
    >>> scaler = torch.amp.GradScaler("cpu", init_scale=4.0)
    >>> scaler.scale((w * w).sum()).backward()
    >>> scaler.step(opt); scaler.update()
    >>> w.tolist(), scaler.get_scale()
    ([0.800000011920929, 0.800000011920929], 4.0)
"""

from __future__ import annotations

import enum
import warnings
from collections import defaultdict
from typing import Any

import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from .._ops import isfinite
from .._ops_creation import full as _full, tensor
from .._tensor import Tensor
from ..autograd.grad_mode import no_grad


class OptState(enum.Enum):
    """Where an optimizer is in the iteration: nothing done, gradients unscaled, stepped.

    Example::

        >>> from fgrad.torch.amp.grad_scaler import OptState
        >>> [s.name for s in OptState]
        ['READY', 'UNSCALED', 'STEPPED']
    """

    READY = 0
    UNSCALED = 1
    STEPPED = 2


def _fresh_state() -> dict[str, Any]:
    return {"stage": OptState.READY, "found_inf": None}


class GradScaler:
    """PyTorch's dynamic loss scaler (``device`` is where the scale lives: ``"cuda"`` or
    ``"cpu"``).  On ``"cuda"`` without CUDA it warns and is disabled: `scale` returns its
    input, `step` calls ``optimizer.step()``, `get_scale` is 1.0.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.amp.GradScaler("cpu").state_dict()["scale"]
        65536.0
    """

    def __init__(self, device: str = "cuda", init_scale: float = 2.0 ** 16, growth_factor: float = 2.0,
                 backoff_factor: float = 0.5, growth_interval: int = 2000, enabled: bool = True) -> None:
        self._device = device
        self._enabled = bool(enabled)
        if device == "cuda" and enabled and not _dev.is_available():
            warnings.warn("torch.cuda.amp.GradScaler is enabled, but CUDA is not available.  Disabling.",
                          UserWarning, stacklevel=2)
            self._enabled = False
        if self._enabled:
            if growth_factor <= 1.0:
                raise AssertionError("The growth factor must be > 1.0.")
            if backoff_factor >= 1.0:
                raise AssertionError("The backoff factor must be < 1.0.")
            self._init_scale = float(init_scale)
            self._scale: Tensor | None = None
            self._growth_factor = float(growth_factor)
            self._backoff_factor = float(backoff_factor)
            self._growth_interval = int(growth_interval)
            self._init_growth_tracker = 0
            self._growth_tracker: int | None = None
            self._per_optimizer_states: dict[int, dict[str, Any]] = defaultdict(_fresh_state)

    # -- the iteration ------------------------------------------------------------------

    def _lazy_init(self, device: Any) -> None:
        self._scale = _full((), self._init_scale, dtype=D.float32, device=device)
        self._growth_tracker = self._init_growth_tracker

    def _check_scale(self, funcname: str) -> None:
        if self._scale is None:
            raise AssertionError(f"Attempted {funcname} but _scale is None.  This may indicate your script "
                                 "did not use scaler.scale(loss or outputs) earlier in the iteration.")

    def scale(self, outputs: Any) -> Any:
        """``outputs`` (a tensor, or an iterable of them) multiplied by the scale.

        Example::

            >>> import fgrad.torch as torch
            >>> torch.amp.GradScaler("cpu", init_scale=8.0).scale(torch.tensor(0.5)).item()
            4.0
        """
        if not self._enabled:
            return outputs
        if isinstance(outputs, Tensor):
            if self._scale is None:
                self._lazy_init(outputs.device)
            return outputs * self._scale.to(device=outputs.device)

        def apply(v: Any) -> Any:
            if isinstance(v, Tensor):
                if self._scale is None:
                    self._lazy_init(v.device)
                return v * self._scale.to(device=v.device)
            if isinstance(v, (list, tuple)) or hasattr(v, "__iter__"):
                scaled = map(apply, v)
                return type(v)(scaled) if isinstance(v, (list, tuple)) else scaled
            raise ValueError("outputs must be a Tensor or an iterable of Tensors")

        return apply(outputs)

    def unscale_(self, optimizer: Any) -> None:
        """Divide ``optimizer``'s gradients by the scale in place and record whether any is
        inf/NaN (once per optimizer and iteration; float16 gradients are refused, as in PyTorch).

        Example::

            >>> import fgrad.torch as torch
            >>> w = torch.nn.Parameter(torch.ones(1)); opt = torch.optim.SGD([w], lr=1.0)
            >>> s = torch.amp.GradScaler("cpu", init_scale=4.0)
            >>> s.scale(w.sum()).backward(); s.unscale_(opt); w.grad.item()
            1.0
        """
        if not self._enabled:
            return
        self._check_scale("unscale_")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.UNSCALED:
            raise RuntimeError("unscale_() has already been called on this optimizer since the last "
                               "update().")
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("unscale_() is being called after step().")
        inv_scale = 1.0 / float(self._scale.item())  # the reciprocal in float64, then float32
        found = False
        with no_grad():
            for group in optimizer.param_groups:
                for p in group["params"]:
                    g = p.grad
                    if g is None:
                        continue
                    if g.dtype == D.float16:
                        raise ValueError("Attempting to unscale FP16 gradients.")
                    if not bool(isfinite(g).all()):
                        found = True
                    g.mul_(tensor(inv_scale, dtype=D.float32, device=g.device))
        state["found_inf"] = found
        state["stage"] = OptState.UNSCALED

    def step(self, optimizer: Any, *args: Any, **kwargs: Any) -> Any:
        """``optimizer.step()`` unless the (unscaled) gradients held an inf/NaN; returns what
        it returns (None when skipped).

        Example::

            >>> import fgrad.torch as torch
            >>> w = torch.nn.Parameter(torch.ones(1)); opt = torch.optim.SGD([w], lr=1.0)
            >>> s = torch.amp.GradScaler("cpu")
            >>> (s.scale(w.sum()) * float("inf")).backward(); s.step(opt); w.item()
            1.0
        """
        if not self._enabled:
            return optimizer.step(*args, **kwargs)
        if "closure" in kwargs:
            raise RuntimeError("Closure use is not currently supported if GradScaler is enabled.")
        self._check_scale("step")
        state = self._per_optimizer_states[id(optimizer)]
        if state["stage"] is OptState.STEPPED:
            raise RuntimeError("step() has already been called since the last update().")
        if state["stage"] is OptState.READY:
            self.unscale_(optimizer)
        retval = None if state["found_inf"] else optimizer.step(*args, **kwargs)
        state["stage"] = OptState.STEPPED
        return retval

    def update(self, new_scale: float | Tensor | None = None) -> None:
        """Back the scale off (``* backoff_factor``) if any step of this iteration was
        skipped, else grow it (``* growth_factor``) after ``growth_interval`` clean steps in a
        row; ``new_scale`` sets it instead.

        Example::

            >>> import fgrad.torch as torch
            >>> s = torch.amp.GradScaler("cpu", init_scale=2.0); _ = s.scale(torch.ones(()))
            >>> s.update(16.0); s.get_scale()
            16.0
        """
        if not self._enabled:
            return
        self._check_scale("update")
        if new_scale is not None:
            if isinstance(new_scale, float):
                self._scale.fill_(new_scale)
            else:
                reason = ("new_scale should be a float or a 1-element torch.cuda.FloatTensor or "
                          "torch.FloatTensor with requires_grad=False.")
                if (not isinstance(new_scale, Tensor) or new_scale.numel() != 1
                        or new_scale.requires_grad or new_scale.device.type != self._scale.device.type):
                    raise AssertionError(reason)
                self._scale.copy_(new_scale.reshape(()))
        else:
            recorded = [s["found_inf"] for s in self._per_optimizer_states.values()
                        if s["found_inf"] is not None]
            if not recorded:
                raise AssertionError("No inf checks were recorded prior to update.")
            if any(recorded):
                self._scale.mul_(self._backoff_factor)
                self._growth_tracker = 0
            else:
                successful = self._growth_tracker + 1
                if successful == self._growth_interval:
                    grown = float(self._scale.item()) * self._growth_factor
                    if grown != float("inf"):
                        self._scale.fill_(grown)
                    self._growth_tracker = 0
                else:
                    self._growth_tracker = successful
        self._per_optimizer_states = defaultdict(_fresh_state)

    # -- settings and checkpoints -------------------------------------------------------

    def get_scale(self) -> float:
        """The current scale (1.0 when disabled).

        Example::

            >>> GradScaler("cpu", init_scale=8.0).get_scale()
            8.0
        """
        if self._enabled:
            return self._init_scale if self._scale is None else float(self._scale.item())
        return 1.0

    def get_growth_factor(self) -> float:
        """The factor the scale grows by.

        Example::

            >>> GradScaler("cpu").get_growth_factor()
            2.0
        """
        return self._growth_factor

    def set_growth_factor(self, new_factor: float) -> None:
        """Set the growth factor.

        Example::

            >>> GradScaler("cpu").set_growth_factor(4.0)
        """
        self._growth_factor = new_factor

    def get_backoff_factor(self) -> float:
        """The factor the scale backs off by.

        Example::

            >>> GradScaler("cpu").get_backoff_factor()
            0.5
        """
        return self._backoff_factor

    def set_backoff_factor(self, new_factor: float) -> None:
        """Set the backoff factor.

        Example::

            >>> GradScaler("cpu").set_backoff_factor(0.25)
        """
        self._backoff_factor = new_factor

    def get_growth_interval(self) -> int:
        """How many clean steps in a row grow the scale.

        Example::

            >>> GradScaler("cpu").get_growth_interval()
            2000
        """
        return self._growth_interval

    def set_growth_interval(self, new_interval: int) -> None:
        """Set the growth interval.

        Example::

            >>> GradScaler("cpu").set_growth_interval(10)
        """
        self._growth_interval = new_interval

    def _get_growth_tracker(self) -> int:
        if self._enabled:
            return self._init_growth_tracker if self._growth_tracker is None else int(self._growth_tracker)
        return 0

    def is_enabled(self) -> bool:
        """Whether the scaler scales (False after the no-CUDA warning, or with ``enabled=False``).

        Example::

            >>> GradScaler("cpu", enabled=False).is_enabled()
            False
        """
        return self._enabled

    def state_dict(self) -> dict[str, Any]:
        """``scale``, ``growth_factor``, ``backoff_factor``, ``growth_interval`` and
        ``_growth_tracker`` (an empty dict when disabled), as PyTorch's.

        Example::

            >>> sorted(GradScaler("cpu").state_dict())
            ['_growth_tracker', 'backoff_factor', 'growth_factor', 'growth_interval', 'scale']
        """
        if self._enabled:
            return {"scale": self.get_scale(), "growth_factor": self._growth_factor,
                    "backoff_factor": self._backoff_factor, "growth_interval": self._growth_interval,
                    "_growth_tracker": self._get_growth_tracker()}
        return {}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a `state_dict` (ignored when disabled, as in PyTorch).

        Example::

            >>> s = GradScaler("cpu"); s.load_state_dict({**s.state_dict(), "scale": 2.0}); s.get_scale()
            2.0
        """
        if not self._enabled:
            return
        if len(state_dict) == 0:
            raise RuntimeError("The source state dict is empty, possibly because it was saved from a "
                               "disabled instance of GradScaler.")
        self._init_scale = float(state_dict["scale"])
        if self._scale is not None:
            self._scale.fill_(state_dict["scale"])
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._init_growth_tracker = int(state_dict["_growth_tracker"])
        if self._growth_tracker is not None:
            self._growth_tracker = int(state_dict["_growth_tracker"])


class CudaGradScaler(GradScaler):
    """``torch.cuda.amp.GradScaler`` (deprecated in PyTorch): ``GradScaler("cuda", ...)``.

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     CudaGradScaler(enabled=False).is_enabled()
        False
    """

    def __init__(self, init_scale: float = 2.0 ** 16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                 growth_interval: int = 2000, enabled: bool = True) -> None:
        warnings.warn("`torch.cuda.amp.GradScaler(args...)` is deprecated. Please use "
                      "`torch.amp.GradScaler('cuda', args...)` instead.", FutureWarning, stacklevel=2)
        super().__init__("cuda", init_scale, growth_factor, backoff_factor, growth_interval, enabled)


CudaGradScaler.__name__ = CudaGradScaler.__qualname__ = "GradScaler"
