"""The torch.func "Jacobians, Hessians, hvp, vhp, and more" tutorial without the timings:
vjp row by row versus jacrev, argnums, vmap(jacrev) for a batch, jacfwd versus jacrev,
hessian = jacfwd(jacrev), batch Hessians, and hvp by jvp of grad against
torch.autograd.functional.hvp / vhp."""
# ruff: noqa: E501  (written as the published program is)

from functools import partial

import torch
import torch.nn.functional as F
from torch.func import grad, hessian, jacfwd, jacrev, jvp, vjp, vmap

torch.manual_seed(0)


def predict(weight, bias, x):
    return F.linear(x, weight, bias).tanh()


D = 8
weight = torch.randn(D, D)
bias = torch.randn(D)
x = torch.randn(D)

xp = x.clone().requires_grad_()
unit_vectors = torch.eye(D)


def compute_jac(xp):
    jacobian_rows = [torch.autograd.grad(predict(weight, bias, xp), xp, vec)[0] for vec in unit_vectors]
    return torch.stack(jacobian_rows)


jacobian = compute_jac(xp)
print(jacobian.shape)
print(jacobian[0])
_, vjp_fn = vjp(partial(predict, weight, bias), x)
ft_jacobian, = vmap(vjp_fn)(unit_vectors)
print(torch.allclose(ft_jacobian, jacobian))
ft_jacobian = jacrev(predict, argnums=2)(weight, bias, x)
print(torch.allclose(ft_jacobian, jacobian))
ft_jac_weight, ft_jac_bias = jacrev(predict, argnums=(0, 1))(weight, bias, x)
print(ft_jac_weight.shape, ft_jac_bias.shape)
print(ft_jac_bias[:2])
jac_fwd = jacfwd(predict, argnums=2)(weight, bias, x)
print(torch.allclose(jac_fwd, jacobian, atol=1e-6))

# Hessians
hess_api = hessian(predict, argnums=2)(weight, bias, x)
hess_fwdfwd = jacfwd(jacfwd(predict, argnums=2), argnums=2)(weight, bias, x)
hess_revrev = jacrev(jacrev(predict, argnums=2), argnums=2)(weight, bias, x)
print(hess_api.shape, torch.allclose(hess_api, hess_fwdfwd, atol=1e-6), torch.allclose(hess_api, hess_revrev, atol=1e-6))
print(hess_api[0, :3, :3])

# batch Jacobian and batch Hessian
batch_size = 16
Din, Dout = 6, 5
weight = torch.randn(Dout, Din)
bias = torch.randn(Dout)
x = torch.randn(batch_size, Din)
compute_batch_jacobian = vmap(jacrev(predict, argnums=2), in_dims=(None, None, 0))
batch_jacobian0 = compute_batch_jacobian(weight, bias, x)
print(batch_jacobian0.shape)


def predict_with_output_summed(weight, bias, x):
    return predict(weight, bias, x).sum(0)


batch_jacobian1 = jacrev(predict_with_output_summed, argnums=2)(weight, bias, x).movedim(1, 0)
print(torch.allclose(batch_jacobian0, batch_jacobian1))
compute_batch_hessian = vmap(hessian(predict, argnums=2), in_dims=(None, None, 0))
batch_hess = compute_batch_hessian(weight, bias, x)
print(batch_hess.shape, round(batch_hess.abs().sum().item(), 4))


# Hessian-vector products
def hvp(f, primals, tangents):
    return jvp(grad(f), primals, tangents)[1]


def f(x):
    return x.sin().sum()


x = torch.randn(2048)
tangent = torch.randn(2048)
result = hvp(f, (x,), (tangent,))
print(torch.allclose(result, -x.sin() * tangent))
_, want = torch.autograd.functional.hvp(f, x, tangent)
_, want_vhp = torch.autograd.functional.vhp(f, x, tangent)
print(torch.allclose(result, want), torch.allclose(want, want_vhp))
print(result[:5])


def rosenbrock(x):
    return ((1 - x[:-1]) ** 2 + 100 * (x[1:] - x[:-1] ** 2) ** 2).sum()


z = torch.tensor([0.5, -0.3, 1.2, 0.8], dtype=torch.float64)
print(grad(rosenbrock)(z))
print(hessian(rosenbrock)(z))
print(hvp(rosenbrock, (z,), (torch.ones(4, dtype=torch.float64),)))
