"""The less common Tensor methods that optimizer and layer implementations use, with their
gradients: addcmul/addcdiv (and in-place with value=), lerp with scalar and tensor weights,
addmm/addmv/addr/baddbmm/addbmm with beta/alpha, tensordot, cross/linalg.cross, cumprod with
zeros, cummax/cummin values, renorm, logaddexp/logaddexp2, hypot, copysign, frac/trunc/fix,
sgn/sign/signbit, clamp with tensor bounds, diff with prepend/append, trapezoid, vander,
heaviside, nan_to_num, fmax/fmin with NaN, float_power, true_divide, xlogy, lgamma, atan2,
polar/complex/angle, outer, and a torch.autograd.gradcheck of a composition in float64."""
# ruff: noqa: E501

import torch

torch.manual_seed(0)
a, b, c = torch.randn(3, 4), torch.randn(3, 4), torch.rand(3, 4) + 0.5
print(torch.addcmul(a, b, c, value=0.5), torch.addcdiv(a, b, c, value=-2), a.clone().addcmul_(b, b, value=3)[0], a.clone().addcdiv_(b, c)[1])
print(torch.lerp(a, b, 0.25)[0], torch.lerp(a, b, c)[0], a.clone().lerp_(b, 0.9)[2])
M, m1, m2 = torch.randn(2, 3), torch.randn(2, 4), torch.randn(4, 3)
print(torch.addmm(M, m1, m2, beta=0.5, alpha=2), torch.addmv(torch.randn(2), m1, torch.randn(4), beta=0), torch.addr(torch.zeros(2, 3), torch.tensor([1.0, 2.0]), torch.tensor([1.0, 0.0, -1.0]), alpha=3))
bb1, bb2 = torch.randn(3, 2, 4), torch.randn(3, 4, 5)
print(torch.baddbmm(torch.ones(3, 2, 5), bb1, bb2, beta=0.1, alpha=0.5)[1], torch.addbmm(torch.zeros(2, 5), bb1, bb2))
print(torch.tensordot(torch.randn(2, 3, 4), torch.randn(4, 3, 5), dims=([1, 2], [1, 0])), torch.tensordot(torch.arange(6.0).reshape(2, 3), torch.arange(6.0).reshape(3, 2), dims=1))
u, v = torch.randn(4, 3), torch.randn(4, 3)
print(torch.cross(u, v, dim=1), torch.linalg.cross(u, v))
z = torch.tensor([2.0, 0.0, 3.0, -1.0, 0.0, 4.0])
print(torch.cumprod(z, 0), torch.cummax(z, 0), torch.cummin(z, 0), torch.logcumsumexp(z, 0))
print(torch.renorm(torch.arange(1.0, 10.0).reshape(3, 3), 2, 0, 5.0), torch.logaddexp(a[0], b[0]), torch.logaddexp2(a[0], b[0]), torch.hypot(a[0], b[0]))
w = torch.tensor([-2.7, -0.5, -0.0, 0.0, 0.5, 2.7])
print(torch.copysign(w, -1.0), torch.copysign(torch.ones(6), w), w.frac(), w.trunc(), w.fix(), w.sgn(), w.sign(), w.signbit(), torch.heaviside(w, torch.tensor(0.5)))
print(torch.clamp(a[0], min=torch.tensor([-0.5, 0.0, 0.5, -1.0]), max=torch.tensor([0.5, 1.0, 0.6, 0.0])), a[0].clamp(max=0.1), a[0].clip(-0.2, 0.2))
print(torch.diff(z), torch.diff(z, n=2), torch.diff(z, prepend=torch.tensor([10.0]), append=torch.tensor([-10.0, 0.0])), torch.diff(a, dim=0)[0])
print(torch.trapezoid(z), torch.trapezoid(z, dx=0.5), torch.trapezoid(z, torch.tensor([0.0, 1.0, 3.0, 4.0, 6.0, 7.0])), torch.cumulative_trapezoid(z), torch.vander(torch.tensor([1, 2, 3]), N=4), torch.vander(torch.tensor([1.0, 2.0]), increasing=True))
nanv = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])
print(torch.nan_to_num(nanv), torch.nan_to_num(nanv, nan=0.0, posinf=9.0, neginf=-9.0), torch.fmax(nanv, torch.tensor([1.0, float("nan"), 0.0, 2.0])), torch.fmin(nanv, torch.zeros(4)), torch.maximum(nanv, torch.zeros(4)))
print(torch.float_power(torch.tensor([2, 3]), 2), torch.float_power(torch.tensor([2.0]), torch.tensor([0.5])), torch.true_divide(torch.tensor([3, 4]), 2), torch.atan2(a[0], b[0]), torch.outer(torch.arange(3.0), torch.tensor([1.0, -1.0])))
pc = torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, torch.pi / 2]))
print(pc, torch.complex(torch.tensor([1.0]), torch.tensor([-2.0])), pc.angle(), torch.angle(torch.tensor([-1.0, 0.0, 2.0])), pc.abs(), torch.view_as_real(pc))

x = torch.randn(3, 4, requires_grad=True)
y = torch.randn(3, 4, requires_grad=True)
k = (torch.rand(3, 4) + 0.5).requires_grad_()
terms = [
    torch.addcmul(x, y, k, value=0.5), torch.addcdiv(x, y, k, value=-2), torch.lerp(x, y, k), torch.logaddexp(x, y), torch.hypot(x, y), torch.atan2(x, y),
    torch.cumprod(x, 1), torch.renorm(x, 2, 0, 1.0), torch.copysign(x, y), torch.clamp(x, min=y, max=y + k), torch.fmax(x, y), torch.lerp(x, y, 0.3), torch.diff(x * k, dim=1, prepend=y[:, :1]),
    torch.cross(x[:, :3], y[:, :3], dim=1), torch.float_power(k, 1.5).float(), x.frac() * k, torch.logcumsumexp(x, 1),
]
for i, tt in enumerate(terms):
    gx, gy, gk = torch.autograd.grad((tt * torch.linspace(0.5, 1.5, tt.numel()).reshape(tt.shape)).sum(), (x, y, k), allow_unused=True, materialize_grads=True)
    print(i, gx[0], gy[1], gk[2])
xz = torch.tensor([[2.0, 0.0, 3.0], [0.0, 0.0, 1.0]], requires_grad=True)
torch.cumprod(xz, 1).sum().backward()
print(xz.grad)
xm = torch.tensor([1.0, 3.0, 2.0, 3.0, 0.5], requires_grad=True)
torch.cummax(xm, 0).values.sum().backward()
print(xm.grad)
Mx = torch.randn(2, 3, requires_grad=True)
A1 = torch.randn(2, 4, requires_grad=True)
A2 = torch.randn(4, 3, requires_grad=True)
torch.addmm(Mx, A1, A2, beta=0.5, alpha=2).pow(2).sum().backward()
print(Mx.grad, A1.grad[0], A2.grad[:, 0])
bz = torch.randn(3, 2, 4, requires_grad=True)
torch.baddbmm(torch.ones(3, 2, 5), bz, bb2, beta=0.1, alpha=0.5).sum().backward()
print(bz.grad[0])


def f(p, q):
    return (torch.addcdiv(p, q, q.exp(), value=0.3) * torch.lerp(p, q, 0.2)).cumprod(0).logcumsumexp(0)


p64 = torch.randn(4, dtype=torch.float64, requires_grad=True)
q64 = torch.randn(4, dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(f, (p64, q64)), torch.autograd.gradgradcheck(f, (p64, q64)))
