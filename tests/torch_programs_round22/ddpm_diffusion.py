"""A denoising diffusion probabilistic model (Ho et al. 2020, the annotated-diffusion and
lucidrains/denoising-diffusion-pytorch recipes) on 2-D points: a linear and a cosine beta
schedule, alphas_cumprod by cumprod, the q_sample forward process with buffers gathered per
timestep, sinusoidal timestep embeddings, a small MLP denoiser with SiLU and GroupNorm, the
simple epsilon loss, DDPM ancestral sampling with posterior variance clipped and log-variance,
and DDIM deterministic sampling."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def linear_beta_schedule(T):
    return torch.linspace(1e-4, 0.02, T)


def cosine_beta_schedule(T, s=0.008):
    steps = T + 1
    x = torch.linspace(0, T, steps, dtype=torch.float64)
    ac = torch.cos(((x / T) + s) / (1 + s) * math.pi * 0.5) ** 2
    ac = ac / ac[0]
    betas = 1 - (ac[1:] / ac[:-1])
    return torch.clip(betas, 0, 0.999).float()


def extract(a, t, x_shape):
    b = t.shape[0]
    out = a.gather(-1, t)
    return out.reshape(b, *((1,) * (len(x_shape) - 1)))


class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, t):
        half = self.dim // 2
        emb = math.log(10000) / (half - 1)
        emb = torch.exp(torch.arange(half, device=t.device) * -emb)
        emb = t[:, None].float() * emb[None, :]
        return torch.cat((emb.sin(), emb.cos()), dim=-1)


class Denoiser(nn.Module):
    def __init__(self, dim=2, hidden=64, tdim=16):
        super().__init__()
        self.time_mlp = nn.Sequential(SinusoidalPosEmb(tdim), nn.Linear(tdim, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.inp = nn.Linear(dim, hidden)
        self.block = nn.Sequential(nn.GroupNorm(4, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.out = nn.Sequential(nn.GroupNorm(4, hidden), nn.SiLU(), nn.Linear(hidden, dim))

    def forward(self, x, t):
        h = self.inp(x) + self.time_mlp(t)
        h = h + self.block(h)
        return self.out(h)


class Diffusion(nn.Module):
    def __init__(self, model, T=50, schedule="linear"):
        super().__init__()
        self.model, self.T = model, T
        betas = linear_beta_schedule(T) if schedule == "linear" else cosine_beta_schedule(T)
        alphas = 1.0 - betas
        ac = torch.cumprod(alphas, dim=0)
        ac_prev = F.pad(ac[:-1], (1, 0), value=1.0)
        self.register_buffer("betas", betas)
        self.register_buffer("alphas_cumprod", ac)
        self.register_buffer("alphas_cumprod_prev", ac_prev)
        self.register_buffer("sqrt_alphas_cumprod", torch.sqrt(ac))
        self.register_buffer("sqrt_one_minus_alphas_cumprod", torch.sqrt(1.0 - ac))
        self.register_buffer("sqrt_recip_alphas", torch.sqrt(1.0 / alphas))
        post_var = betas * (1.0 - ac_prev) / (1.0 - ac)
        self.register_buffer("posterior_variance", post_var)
        self.register_buffer("posterior_log_variance_clipped", torch.log(post_var.clamp(min=1e-20)))

    def q_sample(self, x0, t, noise):
        return extract(self.sqrt_alphas_cumprod, t, x0.shape) * x0 + extract(self.sqrt_one_minus_alphas_cumprod, t, x0.shape) * noise

    def p_losses(self, x0, t):
        noise = torch.randn_like(x0)
        x_noisy = self.q_sample(x0, t, noise)
        return F.smooth_l1_loss(self.model(x_noisy, t), noise) + 0.5 * F.mse_loss(self.model(x_noisy, t), noise)

    @torch.no_grad()
    def p_sample(self, x, t_index):
        t = torch.full((x.shape[0],), t_index, dtype=torch.long)
        mean = extract(self.sqrt_recip_alphas, t, x.shape) * (
            x - extract(self.betas, t, x.shape) * self.model(x, t) / extract(self.sqrt_one_minus_alphas_cumprod, t, x.shape))
        if t_index == 0:
            return mean
        return mean + torch.exp(0.5 * extract(self.posterior_log_variance_clipped, t, x.shape)) * torch.randn_like(x)

    @torch.no_grad()
    def ddim_sample(self, x, steps=10):
        times = torch.linspace(self.T - 1, 0, steps).long().tolist()
        for i, ti in enumerate(times):
            t = torch.full((x.shape[0],), ti, dtype=torch.long)
            eps = self.model(x, t)
            a = self.alphas_cumprod[ti]
            a_prev = self.alphas_cumprod[times[i + 1]] if i + 1 < len(times) else torch.tensor(1.0)
            x0 = (x - (1 - a).sqrt() * eps) / a.sqrt()
            x = a_prev.sqrt() * x0 + (1 - a_prev).sqrt() * eps
        return x


def two_moons(n, gen):
    t = torch.rand(n, generator=gen) * math.pi
    upper = torch.rand(n, generator=gen) < 0.5
    x = torch.where(upper, torch.cos(t), 1 - torch.cos(t))
    y = torch.where(upper, torch.sin(t), 0.5 - torch.sin(t))
    return torch.stack([x, y], 1) + 0.05 * torch.randn(n, 2, generator=gen)


gen = torch.Generator().manual_seed(1)
data = two_moons(256, gen)
print("data mean", [round(v, 4) for v in data.mean(0).tolist()], "std", [round(v, 4) for v in data.std(0).tolist()])

for sched in ("linear", "cosine"):
    d = Diffusion(Denoiser(), T=50, schedule=sched)
    print(sched, "betas[0,mid,-1]", [f"{v:.6f}" for v in d.betas[[0, 25, 49]].tolist()])
    print(sched, "alphas_cumprod[-1]", f"{d.alphas_cumprod[-1].item():.6f}", "post_var[1]", f"{d.posterior_variance[1].item():.6e}")
    print(sched, "buffers", sorted(n for n, _ in d.named_buffers())[:3], len(list(d.buffers())))

torch.manual_seed(0)
diff = Diffusion(Denoiser(), T=50)
emb = SinusoidalPosEmb(16)(torch.tensor([0, 7, 49]))
print("emb", emb.shape, f"{emb.sum().item():.5f}", f"{emb[1, 3].item():.5f}")
opt = torch.optim.AdamW(diff.parameters(), lr=2e-3, weight_decay=1e-4)
for step in range(60):
    idx = torch.randint(0, data.shape[0], (64,))
    x0 = data[idx]
    t = torch.randint(0, diff.T, (64,)).long()
    loss = diff.p_losses(x0, t)
    opt.zero_grad()
    loss.backward()
    torch.nn.utils.clip_grad_norm_(diff.parameters(), 1.0)
    opt.step()
    if step % 15 == 0 or step == 59:
        print(f"step {step:2d} loss {loss.item():.4f}")

diff.eval()
torch.manual_seed(3)
x = torch.randn(8, 2)
for i in reversed(range(diff.T)):
    x = diff.p_sample(x, i)
print("ddpm samples", x.shape, f"{x.abs().mean().item():.3f}", torch.isfinite(x).all().item())
torch.manual_seed(3)
xd = diff.ddim_sample(torch.randn(8, 2), steps=10)
print("ddim samples", xd.shape, f"{xd.abs().mean().item():.3f}")
t = torch.tensor([0, 10, 49])
x0 = data[:3]
noise = torch.ones_like(x0)
print("q_sample", [[round(v, 4) for v in r] for r in diff.q_sample(x0, t, noise).tolist()])
print("snr", [f"{v:.4f}" for v in (diff.alphas_cumprod / (1 - diff.alphas_cumprod)).log()[[0, 10, 49]].tolist()])
