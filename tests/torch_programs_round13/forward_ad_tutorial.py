"""The "Forward-mode Automatic Differentiation" tutorial: dual tensors with fwAD.dual_level,
make_dual/unpack_dual (primal and tangent), JVPs of elementwise and matmul programs checked
against torch.func.jvp and against reverse-mode Jacobians, forward AD through an nn.Module
with functional_call and dual parameters, a custom autograd.Function with a jvp staticmethod,
and torch.func.jvp/linearize/jacfwd of a small network."""
# ruff: noqa: E501

import torch
import torch.autograd.forward_ad as fwAD
import torch.nn as nn
from torch.func import functional_call, jacfwd, jacrev, jvp, linearize

primal = torch.randn(10, 10)
torch.manual_seed(0)
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)


def fn(x, y):
    return x ** 2 + y ** 2


with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)
    jvp_ = fwAD.unpack_dual(dual_output).tangent
print(fwAD.unpack_dual(dual_output).tangent is None, jvp_[0, :4], (jvp_ - 2 * primal * tangent).abs().max())

model = nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp_m = fwAD.unpack_dual(out).tangent
print(jvp_m[0])
model2 = nn.Linear(5, 5)
params2 = {name: p for name, p in model2.named_parameters()}
with fwAD.dual_level():
    dual_params = {name: fwAD.make_dual(p, tangents[name]) for name, p in params2.items()}
    out = functional_call(model2, dual_params, input)
    jvp2 = fwAD.unpack_dual(out).tangent
print(jvp2[1], (jvp2 - (input @ tangents["weight"].T + tangents["bias"])).abs().max() < 1e-5)


class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result

    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO


fn_ = Fn.apply
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn_(dual_input)
    jvp_c = fwAD.unpack_dual(dual_output).tangent
print(jvp_c[0, :3], torch.autograd.forward_ad.unpack_dual(dual_output).primal.dtype)
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True, check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))


def g(x):
    return torch.stack([x[0] * x[1].sin(), x.pow(3).sum(), torch.tanh(x @ torch.arange(1.0, 4.0))])


x = torch.tensor([0.3, -1.2, 2.0])
v = torch.tensor([1.0, 0.5, -0.25])
out, tan = jvp(g, (x,), (v,))
print(out, tan, jacfwd(g)(x) @ v, jacrev(g)(x) @ v)
o2, jfn = linearize(g, x)
print(jfn(v), jfn(torch.tensor([0.0, 1.0, 0.0])))
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    y = torch.nn.functional.softplus(d).log_softmax(0).cumsum(0) * torch.linalg.norm(d)
    print(fwAD.unpack_dual(y).tangent)
    z = torch.where(d > 0, d.exp(), d.sin()).max()
    print(fwAD.unpack_dual(z))
torch.manual_seed(2)
mlp = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 2))
ps = dict(mlp.named_parameters())
J = jacfwd(lambda p: functional_call(mlp, p, (x,)))(ps)
print({k: tuple(t.shape) for k, t in J.items()}, J["0.bias"].detach())  # grad_fn: see docs (not PyTorch's ViewBackward0)
print(jacfwd(jacrev(lambda t: (t.sin() * t.cos()).sum()))(x))
