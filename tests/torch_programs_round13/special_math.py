"""torch.special and the elementwise math of scientific notebooks: erf/erfc/erfinv/erfcx,
gamma-family functions (lgamma, digamma, polygamma, mvlgamma, gammainc/gammaincc), Bessel
functions (i0, i0e, i1, i1e), ndtr/ndtri/log_ndtr, logit/expit, xlogy/xlog1py, entr, sinc,
zeta, log_softmax/softmax in special, logsumexp with -inf, and the gradients of those
PyTorch differentiates, in float32 and float64, plus the numerically stable formulas
people hand-write (softplus, log1mexp, log-sum-exp tricks)."""
# ruff: noqa: E501

import torch

x = torch.linspace(-3, 3, 13)
p = torch.linspace(0.01, 0.99, 9)
pos = torch.linspace(0.1, 6, 12)
S = torch.special
print(S.erf(x), S.erfc(x), S.erfinv(torch.linspace(-0.99, 0.99, 9)), S.erfcx(x))
print(torch.lgamma(pos), S.digamma(pos), S.polygamma(1, pos), S.polygamma(3, pos), S.multigammaln(pos + 2, 3))
print(S.gammainc(pos, torch.flip(pos, [0])), S.gammaincc(pos, 2 * pos), torch.igamma(torch.tensor([2.0]), torch.tensor([1.0])))
print(S.i0(x), S.i0e(x), S.i1(x), S.i1e(x))
print(S.ndtr(x), S.ndtri(p), S.log_ndtr(torch.tensor([-40.0, -10.0, -1.0, 0.0, 5.0])))
print(S.logit(p), S.logit(torch.tensor([0.0, 1e-8, 1.0]), eps=1e-6), S.expit(x), torch.sigmoid(x))
print(S.xlogy(torch.tensor([0.0, 1.0, 2.0]), torch.tensor([0.0, 2.0, 3.0])), S.xlog1py(torch.tensor([0.0, 3.0]), torch.tensor([-1.0, 0.5])), S.entr(torch.tensor([0.0, 0.5, 1.0, -1.0])))
print(S.sinc(x), S.zeta(torch.tensor([2.0, 3.0, 4.5]), torch.tensor([1.0, 2.0, 0.5])), S.exp2(x), S.expm1(torch.tensor([1e-8, 1.0])), S.log1p(torch.tensor([1e-8, 1.0])))
print(S.round(torch.tensor([0.5, 1.5, 2.5])), S.softmax(x, 0), S.log_softmax(x.reshape(13, 1), 0).squeeze())
print(S.logsumexp(torch.tensor([[-float("inf"), -float("inf")], [0.0, 1.0]]), 1), torch.logsumexp(torch.tensor([1000.0, 1000.0]), 0))
print(S.bessel_j0(pos), S.bessel_j1(pos), S.bessel_y0(pos), S.modified_bessel_k0(pos), S.scaled_modified_bessel_k1(pos))
print(S.chebyshev_polynomial_t(x / 3, 4), S.hermite_polynomial_h(x, 3), S.legendre_polynomial_p(x / 3, torch.tensor(5)), S.laguerre_polynomial_l(pos, 2))
d = torch.linspace(-2, 2, 7, dtype=torch.float64)
print(S.erf(d), S.ndtri(torch.tensor([0.025, 0.5, 0.975], dtype=torch.float64)), torch.lgamma(d.abs() + 0.5), S.i0e(d))

xs = torch.linspace(-2.5, 2.5, 6, requires_grad=True)
ps = torch.linspace(0.1, 0.9, 6, requires_grad=True)
ws = torch.linspace(0.5, 4, 6, requires_grad=True)
for name, fn in [("erf", lambda: S.erf(xs)), ("erfc", lambda: S.erfc(xs)), ("erfinv", lambda: S.erfinv(ps * 2 - 1)), ("erfcx", lambda: S.erfcx(xs)),
                 ("lgamma", lambda: torch.lgamma(ws)), ("digamma", lambda: S.digamma(ws)), ("polygamma2", lambda: S.polygamma(2, ws)), ("mvlgamma", lambda: S.multigammaln(ws + 1, 2)),
                 ("i0", lambda: S.i0(xs)), ("i0e", lambda: S.i0e(xs)), ("i1", lambda: S.i1(xs)), ("i1e", lambda: S.i1e(xs)), ("ndtr", lambda: S.ndtr(xs)), ("ndtri", lambda: S.ndtri(ps)),
                 ("log_ndtr", lambda: S.log_ndtr(xs)), ("logit", lambda: S.logit(ps)), ("xlogy", lambda: S.xlogy(ws, ps)), ("xlog1py", lambda: S.xlog1py(ws, ps)), ("entr", lambda: S.entr(ps)),
                 ("sinc", lambda: S.sinc(xs)), ("logsumexp", lambda: torch.logsumexp(xs.reshape(2, 3), 1)), ("softplus", lambda: torch.nn.functional.softplus(xs, beta=2)),
                 ("log1mexp", lambda: torch.where(-ws > -0.693, torch.log(-torch.expm1(-ws)), torch.log1p(-torch.exp(-ws)))), ("gammaln-ratio", lambda: torch.lgamma(ws + 0.5) - torch.lgamma(ws))]:
    for t in (xs, ps, ws):
        t.grad = None
    fn().sum().backward()
    print(name, *[t.grad for t in (xs, ps, ws) if t.grad is not None])
