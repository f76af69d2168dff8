"""WGAN-GP (Gulrajani et al. 2017, the igul222/improved_wgan_training recipe) on a ring of eight
Gaussians: a critic without batch norm, the gradient penalty ((||grad_x D(x_hat)||_2 - 1)^2 on
random interpolates, by torch.autograd.grad(create_graph=True) and a second backward), n_critic
critic steps per generator step with Adam(betas=(0.5, 0.9)), the original WGAN's weight
clipping with RMSprop for comparison (in float64), the critic's Lipschitz estimate on pairs of points, and
the Wasserstein estimate and mode coverage of generated samples."""
# ruff: noqa: E501

import math

import torch
from torch import nn

torch.manual_seed(0)
CENTERS = torch.tensor([[math.cos(2 * math.pi * k / 8), math.sin(2 * math.pi * k / 8)] for k in range(8)]) * 2.0


def real_batch(n, gen):
    idx = torch.randint(0, 8, (n,), generator=gen)
    return CENTERS[idx] + 0.05 * torch.randn(n, 2, generator=gen)


class Generator(nn.Module):
    def __init__(self, z=4, h=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z, h), nn.ReLU(), nn.Linear(h, h), nn.ReLU(), nn.Linear(h, 2))

    def forward(self, z):
        return self.net(z)


class Critic(nn.Module):
    def __init__(self, h=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, h), nn.LeakyReLU(0.2), nn.Linear(h, h), nn.LeakyReLU(0.2), nn.Linear(h, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


def gradient_penalty(critic, real, fake, gen):
    eps = torch.rand(real.size(0), 1, generator=gen)
    x_hat = (eps * real + (1 - eps) * fake).requires_grad_(True)
    d = critic(x_hat)
    grads = torch.autograd.grad(outputs=d, inputs=x_hat, grad_outputs=torch.ones_like(d), create_graph=True, retain_graph=True)[0]
    norms = grads.norm(2, dim=1)
    return ((norms - 1) ** 2).mean(), norms


def train(mode, iters=60, n_critic=5, lam=10.0, clip=0.01):
    gen = torch.Generator().manual_seed(1)
    torch.manual_seed(2)
    G, D = Generator(), Critic()
    if mode == "gp":
        opt_g = torch.optim.Adam(G.parameters(), lr=1e-3, betas=(0.5, 0.9))
        opt_d = torch.optim.Adam(D.parameters(), lr=1e-3, betas=(0.5, 0.9))
    else:
        opt_g = torch.optim.RMSprop(G.parameters(), lr=5e-4)
        opt_d = torch.optim.RMSprop(D.parameters(), lr=5e-4)
    for it in range(iters):
        for _ in range(n_critic):
            real = real_batch(64, gen)
            with torch.no_grad():
                fake = G(torch.randn(64, 4, generator=gen))
            w_dist = D(real).mean() - D(fake).mean()
            loss_d = -w_dist
            if mode == "gp":
                gp, norms = gradient_penalty(D, real, fake, gen)
                loss_d = loss_d + lam * gp
            opt_d.zero_grad(set_to_none=True)
            loss_d.backward()
            opt_d.step()
            if mode == "clip":
                for p in D.parameters():
                    p.data.clamp_(-clip, clip)
        for p in D.parameters():
            p.requires_grad_(False)
        loss_g = -D(G(torch.randn(64, 4, generator=gen))).mean()
        opt_g.zero_grad()
        loss_g.backward()
        opt_g.step()
        for p in D.parameters():
            p.requires_grad_(True)
        if it % 15 == 0 or it == iters - 1:
            extra = f" gp {gp.item():.4f} |grad| {norms.mean().item():.4f}" if mode == "gp" else ""
            print(f"{mode} it {it:3d} W {w_dist.item():.4f} loss_d {loss_d.item():.4f} loss_g {loss_g.item():.4f}{extra}")
    return G, D


def lipschitz_estimate(D, gen, n=256):
    a = torch.randn(n, 2, generator=gen) * 2
    b = a + 0.1 * torch.randn(n, 2, generator=gen)
    with torch.no_grad():
        ratio = (D(a) - D(b)).abs() / (a - b).norm(dim=1)
    return ratio.max().item(), ratio.mean().item()


def coverage(G, gen, n=512):
    with torch.no_grad():
        x = G(torch.randn(n, 4, generator=gen))
    d = torch.cdist(x, CENTERS.to(x.dtype))
    nearest = d.argmin(1)
    close = d.min(1).values < 0.5
    counts = torch.bincount(nearest[close], minlength=8)
    return counts, close.float().mean().item(), x


for mode in ["gp", "clip"]:
    # clipping pins most critic weights at +-c, where RMSprop's steps amplify float32 rounding
    # into visible differences within 20 iterations: the clipped critic trains in float64
    torch.set_default_dtype(torch.float64 if mode == "clip" else torch.float32)
    G, D = train(mode)
    gen = torch.Generator().manual_seed(7)
    lmax, lmean = lipschitz_estimate(D, gen)
    counts, frac, x = coverage(G, gen)
    print(f"{mode} lipschitz max {lmax:.4f} mean {lmean:.4f}")
    print(f"{mode} modes hit {int((counts > 0).sum())} frac near {frac:.4f} counts {counts.tolist()}")
    print(f"{mode} sample mean {x.mean(0).tolist()[0]:.4f} {x.mean(0).tolist()[1]:.4f} std {x.std(0).tolist()[0]:.4f}")
    flat = torch.cat([p.detach().flatten() for p in D.parameters()])
    print(f"{mode} critic |w|max {flat.abs().max().item():.4f} mean {flat.abs().mean().item():.5f}")

torch.set_default_dtype(torch.float32)

# the penalty's double backward checked against a finite difference of the penalty
torch.manual_seed(3)
D = Critic(h=8).double()
gen = torch.Generator().manual_seed(4)
real = real_batch(16, gen).double()
fake = torch.randn(16, 2, generator=gen).double()
gen_a = torch.Generator().manual_seed(5)
gp, _ = gradient_penalty(D, real, fake, gen_a)
gp.backward()
w = D.net[0].weight
g_analytic = w.grad[0, 0].item()
with torch.no_grad():
    w[0, 0] += 1e-6
gen_a = torch.Generator().manual_seed(5)
gp_plus, _ = gradient_penalty(D, real, fake, gen_a)
with torch.no_grad():
    w[0, 0] -= 2e-6
gen_a = torch.Generator().manual_seed(5)
gp_minus, _ = gradient_penalty(D, real, fake, gen_a)
fd = (gp_plus.item() - gp_minus.item()) / 2e-6
print(f"double backward dGP/dw00 {g_analytic:.6f} finite difference {fd:.6f} agree {abs(g_analytic - fd) < 1e-5}")
