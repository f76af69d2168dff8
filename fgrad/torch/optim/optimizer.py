"""`Optimizer`: parameter groups, per-parameter state, ``step``, ``zero_grad``, ``state_dict``.

`Optimizer.step` holds the loop every PyTorch optimizer shares: under ``no_grad`` (so a step
bumps the parameters' version counters like any in-place op), for each parameter with a
gradient, it negates the gradient (``maximize``), creates the state (``_init_state``), counts
the step (``state["step"]``, when the state has one), applies ``weight_decay`` (added to the
gradient, or ``p *= 1 - lr * weight_decay`` when the group has ``decoupled_weight_decay``) and
calls the subclass's ``_update_parameter``, which holds only the update formula.

Example::

    >>> import fgrad.torch as torch
    >>> w = torch.ones(2, requires_grad=True)
    >>> opt = torch.optim.SGD([w], lr=0.5)
    >>> (w * w).sum().backward(); opt.step()
    >>> w
    tensor([0., 0.], requires_grad=True)
"""

from __future__ import annotations

import functools
import warnings
from collections import OrderedDict, defaultdict
from copy import deepcopy
from itertools import chain
from collections.abc import Iterable
from typing import Any, Union

import numpy as np

import fgrad.torch as torch

from .. import _fma
from .._dispatch import bump_version
from .._tensor import Tensor
from ..utils.hooks import RemovableHandle
from collections.abc import Callable

__all__ = ["Optimizer", "required"]


class _RequiredParameter:
    """Singleton marking a hyper-parameter without default."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()

_LABELS = {"lr": "learning rate", "eps": "epsilon value"}


def _check_non_negative(reject_nan: bool = True, **hyper_parameters: Any) -> None:
    """PyTorch's ValueError for the first negative hyper-parameter (``Invalid learning rate:
    -1``); NaN is rejected too unless ``reject_nan`` is false (SGD's check); ``lr`` may be a
    one-element tensor."""
    for name, value in hyper_parameters.items():
        if name == "lr" and isinstance(value, Tensor) and value.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if (not 0.0 <= value) if reject_nan else value < 0.0:
            raise ValueError(f"Invalid {_LABELS.get(name, name + ' value')}: {value}")


def _typename(o) -> str:
    if isinstance(o, Tensor):
        return o.type()
    mod = type(o).__module__
    return type(o).__qualname__ if mod == "builtins" else f"{mod}.{type(o).__qualname__}"


def _use_grad(step):
    """Run ``step`` under no_grad (or grad mode when the group is ``differentiable``)."""

    @functools.wraps(step)
    def wrapper(self, *args, **kwargs):
        prev = torch.is_grad_enabled()
        try:
            torch.set_grad_enabled(bool(self.defaults.get("differentiable", False)))
            for pre_hook in chain(_global_pre_hooks.values(), self._optimizer_step_pre_hooks.values()):
                res = pre_hook(self, args, kwargs)
                if res is not None:
                    args, kwargs = res
            out = step(self, *args, **kwargs)
            for post_hook in chain(self._optimizer_step_post_hooks.values(), _global_post_hooks.values()):
                post_hook(self, args, kwargs)
            return out
        finally:
            torch.set_grad_enabled(prev)

    wrapper._uses_grad_wrapper = True
    return wrapper


_global_pre_hooks: dict = OrderedDict()
_global_post_hooks: dict = OrderedDict()


def register_optimizer_step_pre_hook(hook) -> RemovableHandle:
    handle = RemovableHandle(_global_pre_hooks)
    _global_pre_hooks[handle.id] = hook
    return handle


def register_optimizer_step_post_hook(hook) -> RemovableHandle:
    handle = RemovableHandle(_global_post_hooks)
    _global_post_hooks[handle.id] = hook
    return handle


_nd = np.ndarray
_PLAIN_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _update_as_real(update: Callable[..., None], p: Tensor, grad: Tensor, state: dict, group: dict) -> None:
    """``update`` of a complex parameter through ``view_as_real`` of it, its gradient and its
    complex state, as PyTorch's optimizers do: the real and imaginary parts are two real
    parameters (Adam's second moment is ``re(g)**2`` and ``im(g)**2``, not ``g*g``).  State that
    ``update`` creates (SGD's momentum buffer) is stored back as a complex tensor."""
    real = {k: torch.view_as_real(v) if isinstance(v, Tensor) and v.is_complex() else v
            for k, v in state.items()}
    views = {k: v for k, v in real.items() if v is not state[k]}
    update(torch.view_as_real(p), torch.view_as_real(grad), real, group)
    for k, v in real.items():
        if views.get(k) is not v:
            complex_view = isinstance(v, Tensor) and v.is_floating_point() and v.dim() and v.shape[-1] == 2
            state[k] = torch.view_as_complex(v) if complex_view and v.shape[:-1] == p.shape else v


def _plain_pair(p: Tensor, grad: Tensor) -> bool:
    """Whether `Optimizer._step_plain` may update ``p`` from ``grad``: both dense host
    arrays of one dtype (float32 or float64) and shape, not sharing memory."""
    if type(grad) is not Tensor:  # a sparse gradient has no dense buffer to read
        return False
    b, g = p._buf, grad._buf
    return (type(b) is _nd and type(g) is _nd and b.dtype == g.dtype and b.dtype in _PLAIN_DTYPES
            and b.shape == g.shape and not np.may_share_memory(b, g))


# what an optimizer's ``params`` may be (PyTorch's name): tensors, ``(name, tensor)`` pairs, or
# parameter groups (dicts with a ``"params"`` entry)
ParamsT = Union[Iterable[Tensor], Iterable[dict[str, Any]], Iterable[tuple[str, Tensor]]]


class Optimizer:
    """Base class of optimizers: ``Optimizer(params, defaults)`` where ``params`` is an
    iterable of tensors, of ``(name, tensor)`` pairs, or of dicts (parameter groups).

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.nn.Parameter(torch.tensor([1.0]))
        >>> opt = torch.optim.SGD([w], lr=0.1)
        >>> isinstance(opt, torch.optim.Optimizer), opt.param_groups[0]['lr']
        (True, 0.1)
    """

    # hyper-parameters that groups saved by older PyTorch versions may lack, and their values
    _legacy_group_defaults: dict[str, Any] = {}

    def __init__(self, params: ParamsT, defaults: dict) -> None:
        self.defaults = defaults
        self._optimizer_step_pre_hooks: dict = OrderedDict()
        self._optimizer_step_post_hooks: dict = OrderedDict()
        self._optimizer_state_dict_pre_hooks: dict = OrderedDict()
        self._optimizer_state_dict_post_hooks: dict = OrderedDict()
        self._optimizer_load_state_dict_pre_hooks: dict = OrderedDict()
        self._optimizer_load_state_dict_post_hooks: dict = OrderedDict()
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of Tensors or "
                            f"dicts, but got {_typename(params)}")
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def __getstate__(self) -> dict:
        return {"defaults": self.defaults, "state": self.state, "param_groups": self.param_groups}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        for name in ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                     "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                     "_optimizer_load_state_dict_pre_hooks", "_optimizer_load_state_dict_post_hooks"):
            if name not in self.__dict__:
                self.__dict__[name] = OrderedDict()
        self.defaults.setdefault("differentiable", False)
        for group in self.param_groups:
            for name, default in self._legacy_group_defaults.items():
                group.setdefault(name, default)

    def __repr__(self) -> str:
        format_string = self.__class__.__name__ + " ("
        for i, group in enumerate(self.param_groups):
            format_string += "\n"
            format_string += f"Parameter Group {i}\n"
            for key in sorted(group.keys()):
                if key != "params":
                    format_string += f"    {key}: {group[key]}\n"
        format_string += ")"
        return format_string

    # -- groups ---------------------------------------------------------------------------
    def add_param_group(self, param_group: dict) -> None:
        """Add a group of parameters with its own hyper-parameters (missing ones default to
        the optimizer's)."""
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group).__name__}")
        params = param_group["params"]
        if isinstance(params, Tensor):
            param_group["params"] = [params]
        elif isinstance(params, set):
            raise TypeError("optimizer parameters need to be organized in ordered collections, but the "
                            "ordering of tensors in sets will change between runs. Please use a list "
                            "instead.")
        else:
            param_group["params"] = list(params)
        extracted, names = [], []
        for p in param_group["params"]:
            if isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str):
                names.append(p[0])
                extracted.append(p[1])
            else:
                extracted.append(p)
        if names:
            if len(names) != len(extracted):
                raise ValueError("all optimizer params should be with/without names. Some param names are "
                                 "missing")
            param_group["param_names"] = names
        param_group["params"] = extracted
        for param in param_group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                + _typename(param))
            if not self.defaults.get("differentiable", None) and not (param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required optimization parameter "
                                 f"{name}")
            param_group.setdefault(name, default)
        params = param_group["params"]
        if len(params) != len({id(p) for p in params}):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in future, this "
                          "will cause an error; see github.com/pytorch/pytorch/issues/40967 for more "
                          "information", stacklevel=3)
        param_set = set()
        for group in self.param_groups:
            param_set.update(id(p) for p in group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                current = "with names" if "param_names" in param_group else "without names"
                raise ValueError(f"all optimizer param groups should be with/without names. cannot add param "
                                 f"group {current} to the optimizer")
        if not param_set.isdisjoint(id(p) for p in param_group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(param_group)

    # -- gradients ----------------------------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all optimized tensors (to None by default)."""
        for group in self.param_groups:
            for p in group["params"]:
                g = p.grad
                if g is not None:
                    if set_to_none:
                        p.grad = None
                    else:
                        if g.grad_fn is not None:
                            g.detach_()
                        else:
                            g.requires_grad_(False)
                        g.zero_()

    @_use_grad
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter that has a gradient; ``closure`` re-evaluates the
        loss and is called (with grad enabled) first."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            # Rprop has none; an optimizer that applies it inside its update sets _base_weight_decay
            weight_decay = group.get("weight_decay", 0) if self._base_weight_decay else 0
            decoupled = group.get("decoupled_weight_decay", False)
            plain = self._plain_group(group)
            for p in group["params"]:
                grad = p.grad
                if grad is None:
                    continue
                if plain and _plain_pair(p, grad) and self._step_plain(p, grad, group, weight_decay,
                                                                       decoupled):
                    continue
                if grad.is_sparse and not self._accepts_sparse_grads:
                    hint = ", please consider SparseAdam instead" if "Adam" in type(self).__name__ else ""
                    raise RuntimeError(f"{type(self).__name__} does not support sparse gradients{hint}")
                if group["maximize"]:
                    grad = -grad
                state = self.state.get(p)
                fresh = not state
                if fresh:
                    state = self._init_state(p, group)
                if "step" in state:
                    state["step"] += 1
                if weight_decay != 0:
                    if grad.is_sparse and self._sparse_weight_decay_error:
                        raise RuntimeError(self._sparse_weight_decay_error)
                    if decoupled:
                        p.mul_(1 - group["lr"] * weight_decay)
                    else:
                        grad = grad.add(p, alpha=weight_decay)
                if p.is_complex():
                    _update_as_real(self._update_parameter, p, grad, state, group)
                else:
                    self._update_parameter(p, grad, state, group)
                if fresh and state:  # a state is kept once it holds something
                    self.state[p] = state
        return loss

    # -- the fused path (PyTorch's ``foreach``) -----------------------------------------------
    def _plain_group(self, group: dict) -> bool:
        """Whether the parameters of ``group`` may take `_step_plain`: the optimizer has an
        ``_update_plain``, ``foreach`` is not False, the step records nothing (not
        ``differentiable``), the gradient is not negated (``maximize``) and ``lr`` and the weight
        decay are Python numbers (the optimizer's `_plain_options` checks its own)."""
        return (self._update_plain is not None and group.get("foreach") is not False
                and not torch.is_grad_enabled() and not group.get("maximize", False)
                and type(group["lr"]) in (int, float)
                and type(group.get("weight_decay", 0)) in (int, float) and self._plain_options(group))

    def _plain_options(self, group: dict) -> bool:
        """The subclass's own conditions for `_update_plain` (all groups by default)."""
        return True

    def _step_plain(self, p: Tensor, grad: Tensor, group: dict, weight_decay: float,
                    decoupled: bool) -> bool:
        """`step`'s work for one parameter on NumPy buffers: the same operations, in the same
        order and dtypes, as the per-op path (so the same values), without a Tensor op's
        dispatch per operation; every tensor written gets its version bumped.  False, with
        nothing done, when a state tensor is not a host array of the parameter's dtype and
        shape (a state loaded from elsewhere): the per-op path then takes the parameter."""
        state = self.state.get(p)
        fresh = not state
        if fresh:
            state = self._init_state(p, group)
        b = p._buf
        for k, v in state.items():
            if k != "step" and isinstance(v, Tensor) and not (
                    type(v._buf) is _nd and v._buf.dtype == b.dtype and v._buf.shape == b.shape):
                return False
        with np.errstate(all="ignore"):  # (the shim's ops compute IEEE specials silently)
            st = state.get("step")
            if st is not None:
                sb = st._buf
                if type(sb) is _nd and sb.dtype.kind == "f":
                    np.add(sb, 1, out=sb)
                    bump_version(st)
                else:
                    state["step"] += 1
            g = grad._buf
            if weight_decay != 0:
                if decoupled:
                    np.multiply(b, 1 - group["lr"] * weight_decay, out=b)
                    bump_version(p)
                else:  # grad.add(p, alpha=weight_decay): the fused kernel it calls, on the buffers
                    g = _fma.add_alpha(g, b, weight_decay, b.dtype)
            self._update_plain(p, b, g, state, group)
        if fresh and state:
            self.state[p] = state
        return True

    _update_plain: Callable[..., None] | None = None
    """``_update_plain(p, b, g, state, group)``: `_update_parameter` on the buffers ``b`` (of
    ``p``) and ``g`` (of its gradient), bumping the version of every tensor it writes (None:
    the optimizer has no fused path)."""

    _base_weight_decay = True  # False: _update_parameter applies group["weight_decay"] itself (Adafactor)
    _accepts_sparse_grads = False  # SGD takes sparse gradients (nn.Embedding(sparse=True)); see SparseAdam
    _sparse_weight_decay_error = ""  # PyTorch's message where it refuses weight decay with a sparse gradient

    def _init_state(self, p: Tensor, group: dict) -> dict:
        """The new state of parameter ``p`` at its first step (empty by default)."""
        return {}

    def _update_parameter(self, p: Tensor, grad: Tensor, state: dict, group: dict) -> None:
        """Update ``p`` in place from ``grad`` (already negated for ``maximize`` and with the
        weight decay applied); ``state["step"]`` already counts this step."""
        raise NotImplementedError

    # -- hooks --------------------------------------------------------------------------------
    def register_step_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        handle = RemovableHandle(self._optimizer_step_pre_hooks)
        self._optimizer_step_pre_hooks[handle.id] = hook
        return handle

    def register_step_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        handle = RemovableHandle(self._optimizer_step_post_hooks)
        self._optimizer_step_post_hooks[handle.id] = hook
        return handle

    def register_state_dict_pre_hook(self, hook: Callable[..., Any],
                                     prepend: bool = False) -> RemovableHandle:
        handle = RemovableHandle(self._optimizer_state_dict_pre_hooks)
        self._optimizer_state_dict_pre_hooks[handle.id] = hook
        return handle

    def register_state_dict_post_hook(self,
                                      hook: Callable[[Optimizer, dict[str, Any]], dict[str, Any] | None],
                                      prepend: bool = False) -> RemovableHandle:
        handle = RemovableHandle(self._optimizer_state_dict_post_hooks)
        self._optimizer_state_dict_post_hooks[handle.id] = hook
        return handle

    def register_load_state_dict_pre_hook(self,
                                          hook: Callable[[Optimizer, dict[str, Any]], dict[str, Any] | None],
                                          prepend: bool = False) -> RemovableHandle:
        handle = RemovableHandle(self._optimizer_load_state_dict_pre_hooks)
        self._optimizer_load_state_dict_pre_hooks[handle.id] = hook
        return handle

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any],
                                           prepend: bool = False) -> RemovableHandle:
        handle = RemovableHandle(self._optimizer_load_state_dict_post_hooks)
        self._optimizer_load_state_dict_post_hooks[handle.id] = hook
        return handle

    # -- state dict ---------------------------------------------------------------------------
    def state_dict(self) -> dict:
        """``{'state': {index: {...}}, 'param_groups': [{..., 'params': [indices]}]}`` where a
        parameter's index is its position across all groups (PyTorch's format)."""
        for hook in self._optimizer_state_dict_pre_hooks.values():
            hook(self)
        param_mappings: dict = {}
        start_index = 0

        def pack_group(group):
            nonlocal start_index
            packed = {k: v for k, v in group.items() if k != "params"}
            param_mappings.update({id(p): i for i, p in enumerate(group["params"], start_index)
                                   if id(p) not in param_mappings})
            packed["params"] = [param_mappings[id(p)] for p in group["params"]]
            start_index += len(packed["params"])
            return packed

        param_groups = [pack_group(g) for g in self.param_groups]
        packed_state = {(param_mappings[id(k)] if isinstance(k, Tensor) else k): v
                        for k, v in self.state.items()}
        state_dict = {"state": packed_state, "param_groups": param_groups}
        for hook in self._optimizer_state_dict_post_hooks.values():
            res = hook(self, state_dict)
            if res is not None:
                state_dict = res
        return state_dict

    @staticmethod
    def _process_value_according_to_param_policy(param, value, param_id, param_groups, key=None):
        if key == "step":
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)

    def load_state_dict(self, state_dict: dict) -> None:
        """Restore hyper-parameters and per-parameter state saved by `state_dict`."""
        state_dict = state_dict.copy()
        for hook in self._optimizer_load_state_dict_pre_hooks.values():
            res = hook(self, state_dict)
            if res is not None:
                state_dict = res
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        if len(groups) != len(saved_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        param_lens = (len(g["params"]) for g in groups)
        saved_lens = (len(g["params"]) for g in saved_groups)
        if any(p_len != s_len for p_len, s_len in zip(param_lens, saved_lens)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match the size of "
                             "optimizer's group")
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))

        def _cast(param, value, param_id=None, param_groups=None, key=None):
            if isinstance(value, Tensor):
                return Optimizer._process_value_according_to_param_policy(param, value, param_id,
                                                                          param_groups, key)
            if isinstance(value, dict):
                return {k: _cast(param, v, param_id=param_id, param_groups=param_groups, key=k)
                        for k, v in value.items()}
            if isinstance(value, (list, tuple)):
                return type(value)(_cast(param, v, param_id=param_id, param_groups=param_groups)
                                   for v in value)
            return value

        state: defaultdict = defaultdict(dict)
        for k, v in state_dict["state"].items():
            if k in id_map:
                param = id_map[k]
                state[param] = _cast(param, v, param_id=k, param_groups=state_dict["param_groups"])
            else:
                state[k] = v

        def update_group(group, new_group):
            new_group["params"] = group["params"]
            if "param_names" in group and "param_names" not in new_group:
                new_group["param_names"] = group["param_names"]
            return new_group

        param_groups = [update_group(g, ng) for g, ng in zip(groups, saved_groups)]
        self.__setstate__({"state": state, "param_groups": param_groups})
        for hook in self._optimizer_load_state_dict_post_hooks.values():
            hook(self)

