"""Module backward hooks (``register_full_backward_hook`` / ``..._pre_hook``).

The module's tensor inputs and outputs pass through identity `autograd.Function`s.  In the
backward pass the output identity sees the gradients with respect to the outputs (it runs
the pre-hooks, which may replace them); the input identity sees the gradients with respect to
the inputs and calls ``hook(module, grad_input, grad_output)``, whose non-None result
replaces ``grad_input``.  When no input requires grad the hooks run with ``grad_input`` all
None once the output gradients are known.
"""

from __future__ import annotations

import fgrad.torch as torch

from ..._tensor import Tensor


class BackwardHook:
    def __init__(self, module, hooks, pre_hooks) -> None:
        self.module = module
        self.hooks = hooks
        self.pre_hooks = pre_hooks
        self.grad_outputs = None
        self.n_inputs = 0
        self.input_tensors_index: list[int] = []

    def _run_hooks(self, grad_inputs):
        res = grad_inputs
        for hook in self.hooks.values():
            out = hook(self.module, res, self.grad_outputs)
            if out is not None:
                out = tuple(out) if isinstance(out, (tuple, list)) else (out,)
                if len(out) != len(res):
                    raise RuntimeError("Backward hook returned an invalid number of grad_input, got "
                                       f"{len(out)}, "
                                       f"but expected {len(res)}")
                res = out
        return res

    def setup_input_hook(self, args):
        idx = [i for i, a in enumerate(args) if isinstance(a, Tensor) and a.requires_grad]
        self.n_inputs = len(args)
        self.input_tensors_index = idx
        if not idx or not torch.is_grad_enabled():
            return args
        bh = self

        class BackwardHookFunctionBackward(torch.autograd.Function):
            @staticmethod
            def forward(ctx, *ts):
                return tuple(t.view_as(t) for t in ts) if len(ts) > 1 else ts[0].view_as(ts[0])

            @staticmethod
            def backward(ctx, *grads):
                full = [None] * bh.n_inputs
                for k, i in enumerate(idx):
                    full[i] = grads[k]
                res = bh._run_hooks(tuple(full))
                return tuple(res[i] for i in idx) if len(idx) > 1 else res[idx[0]]

        out = BackwardHookFunctionBackward.apply(*[args[i] for i in idx])
        outs = out if isinstance(out, tuple) else (out,)
        new = list(args)
        for k, i in enumerate(idx):
            new[i] = outs[k]
        return tuple(new)

    def setup_output_hook(self, result):
        single = isinstance(result, Tensor)
        outs = (result,) if single else (tuple(result) if isinstance(result, (tuple, list)) else None)
        if outs is None or not torch.is_grad_enabled():
            return result
        idx = [i for i, o in enumerate(outs) if isinstance(o, Tensor) and o.requires_grad]
        if not idx:
            return result
        bh = self
        no_input_grads = not self.input_tensors_index

        class BackwardHookFunctionBackward(torch.autograd.Function):
            @staticmethod
            def forward(ctx, *ts):
                return tuple(t.view_as(t) for t in ts) if len(ts) > 1 else ts[0].view_as(ts[0])

            @staticmethod
            def backward(ctx, *grads):
                full = [None] * len(outs)
                for k, i in enumerate(idx):
                    full[i] = grads[k]
                full = tuple(full)
                for hook in bh.pre_hooks.values():
                    r = hook(bh.module, full)
                    if r is not None:
                        full = tuple(r) if isinstance(r, (tuple, list)) else (r,)
                bh.grad_outputs = full
                if no_input_grads:
                    bh._run_hooks((None,) * bh.n_inputs)
                res = tuple(full[i] for i in idx)
                return res if len(res) > 1 else res[0]

        out = BackwardHookFunctionBackward.apply(*[outs[i] for i in idx])
        got = out if isinstance(out, tuple) else (out,)
        new = list(outs)
        for k, i in enumerate(idx):
            new[i] = got[k]
        if single:
            return new[0]
        return type(result)(new) if isinstance(result, tuple) else new
