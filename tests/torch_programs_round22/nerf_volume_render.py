"""NeRF volume rendering (Mildenhall et al. 2020, the nerf-pytorch / tiny-NeRF recipes): rays
from a pinhole camera by meshgrid(indexing="xy") and a camera-to-world matrix, stratified
samples along each ray, positional encoding, a small MLP for density and colour, alpha
compositing with an exclusive cumprod of transmittance, the depth and accumulation maps,
hierarchical sampling of a fine pass by inverse-CDF with searchsorted, and a few training
steps of the coarse and fine networks against a synthetic sphere scene."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)


def get_rays(H, W, focal, c2w):
    i, j = torch.meshgrid(torch.arange(W, dtype=torch.float32), torch.arange(H, dtype=torch.float32), indexing="xy")
    dirs = torch.stack([(i - W * 0.5) / focal, -(j - H * 0.5) / focal, -torch.ones_like(i)], -1)
    rays_d = torch.sum(dirs[..., None, :] * c2w[:3, :3], -1)
    rays_o = c2w[:3, -1].expand(rays_d.shape)
    return rays_o, rays_d


def positional_encoding(x, L):
    out = [x]
    for i in range(L):
        for fn in (torch.sin, torch.cos):
            out.append(fn(2.0 ** i * x))
    return torch.cat(out, -1)


class TinyNeRF(nn.Module):
    def __init__(self, L=4, width=32):
        super().__init__()
        self.L = L
        d = 3 + 3 * 2 * L
        self.net = nn.Sequential(nn.Linear(d, width), nn.ReLU(), nn.Linear(width, width), nn.ReLU())
        self.sigma = nn.Linear(width, 1)
        self.rgb = nn.Linear(width + d, 3)

    def forward(self, pts):
        enc = positional_encoding(pts, self.L)
        h = self.net(enc)
        return torch.cat([torch.sigmoid(self.rgb(torch.cat([h, enc], -1))), F.relu(self.sigma(h))], -1)


def cumprod_exclusive(t):
    cp = torch.cumprod(t, -1)
    cp = torch.roll(cp, 1, -1)
    cp[..., 0] = 1.0
    return cp


def render(raw, z_vals, rays_d):
    dists = z_vals[..., 1:] - z_vals[..., :-1]
    dists = torch.cat([dists, torch.tensor([1e10]).expand(dists[..., :1].shape)], -1)
    dists = dists * torch.norm(rays_d[..., None, :], dim=-1)
    alpha = 1.0 - torch.exp(-raw[..., 3] * dists)
    weights = alpha * cumprod_exclusive(1.0 - alpha + 1e-10)
    rgb = torch.sum(weights[..., None] * raw[..., :3], -2)
    depth = torch.sum(weights * z_vals, -1)
    acc = torch.sum(weights, -1)
    return rgb, depth, acc, weights


def sample_pdf(bins, weights, N, det=True):
    weights = weights + 1e-5
    pdf = weights / torch.sum(weights, -1, keepdim=True)
    cdf = torch.cumsum(pdf, -1)
    cdf = torch.cat([torch.zeros_like(cdf[..., :1]), cdf], -1)
    if det:
        u = torch.linspace(0.0, 1.0, steps=N).expand(list(cdf.shape[:-1]) + [N]).contiguous()
    else:
        u = torch.rand(list(cdf.shape[:-1]) + [N])
    inds = torch.searchsorted(cdf, u, right=True)
    below = torch.max(torch.zeros_like(inds - 1), inds - 1)
    above = torch.min((cdf.shape[-1] - 1) * torch.ones_like(inds), inds)
    inds_g = torch.stack([below, above], -1)
    shape = [inds_g.shape[0], inds_g.shape[1], cdf.shape[-1]]
    cdf_g = torch.gather(cdf.unsqueeze(1).expand(shape), 2, inds_g)
    bins_g = torch.gather(bins.unsqueeze(1).expand(shape), 2, inds_g)
    denom = cdf_g[..., 1] - cdf_g[..., 0]
    denom = torch.where(denom < 1e-5, torch.ones_like(denom), denom)
    t = (u - cdf_g[..., 0]) / denom
    return bins_g[..., 0] + t * (bins_g[..., 1] - bins_g[..., 0])


def sphere_scene(pts):
    r = pts.norm(dim=-1)
    sigma = 20.0 * (r < 1.0).float()
    rgb = torch.stack([0.5 + 0.5 * torch.tanh(pts[..., 0]), 0.5 + 0.5 * torch.tanh(pts[..., 1]), torch.full_like(r, 0.3)], -1)
    return torch.cat([rgb, sigma[..., None]], -1)


H = W = 8
focal = 10.0
theta = math.radians(30)
c2w = torch.tensor([[math.cos(theta), 0, math.sin(theta), 4 * math.sin(theta)],
                    [0, 1, 0, 0],
                    [-math.sin(theta), 0, math.cos(theta), 4 * math.cos(theta)],
                    [0, 0, 0, 1]], dtype=torch.float32)
rays_o, rays_d = get_rays(H, W, focal, c2w)
print("rays", rays_o.shape, rays_d.shape, f"{rays_d[0, 0].tolist()[0]:.5f}", f"{rays_d.norm(dim=-1).mean().item():.5f}")
rays_o, rays_d = rays_o.reshape(-1, 3), rays_d.reshape(-1, 3)
near, far, Nc, Nf = 2.0, 6.0, 16, 16
t_vals = torch.linspace(0.0, 1.0, steps=Nc)
z_vals = (near * (1.0 - t_vals) + far * t_vals).expand(rays_o.shape[0], Nc)
mids = 0.5 * (z_vals[..., 1:] + z_vals[..., :-1])
upper = torch.cat([mids, z_vals[..., -1:]], -1)
lower = torch.cat([z_vals[..., :1], mids], -1)
z_strat = lower + (upper - lower) * torch.rand(z_vals.shape)
pts = rays_o[..., None, :] + rays_d[..., None, :] * z_strat[..., :, None]
print("pts", pts.shape, f"{pts.mean().item():.5f}")
gt_rgb, gt_depth, gt_acc, gt_w = render(sphere_scene(pts), z_strat, rays_d)
print("gt acc", f"{gt_acc.mean().item():.4f}", "depth", f"{gt_depth.max().item():.4f}", "rgb", [round(v, 4) for v in gt_rgb.mean(0).tolist()])
enc = positional_encoding(torch.tensor([[0.1, -0.2, 0.3]]), 4)
print("encoding", enc.shape, [round(v, 4) for v in enc[0, -6:].tolist()])

coarse, fine = TinyNeRF(), TinyNeRF()
opt = torch.optim.Adam(list(coarse.parameters()) + list(fine.parameters()), lr=5e-3)
z_fixed = z_vals
pts_c = rays_o[..., None, :] + rays_d[..., None, :] * z_fixed[..., :, None]
target, _, _, _ = render(sphere_scene(pts_c), z_fixed, rays_d)
for it in range(25):
    raw = coarse(pts_c)
    rgb_c, depth_c, acc_c, w = render(raw, z_fixed, rays_d)
    z_mid = 0.5 * (z_fixed[..., 1:] + z_fixed[..., :-1])
    z_samples = sample_pdf(z_mid, w[..., 1:-1], Nf, det=True).detach()
    z_all, _ = torch.sort(torch.cat([z_fixed, z_samples], -1), -1)
    pts_f = rays_o[..., None, :] + rays_d[..., None, :] * z_all[..., :, None]
    rgb_f, depth_f, acc_f, _ = render(fine(pts_f), z_all, rays_d)
    loss = F.mse_loss(rgb_c, target) + F.mse_loss(rgb_f, target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if it % 6 == 0 or it == 24:
        psnr = -10.0 * torch.log10(F.mse_loss(rgb_f, target))
        print(f"it {it:2d} loss {loss.item():.5f} psnr {psnr.item():.3f} zsamples {z_samples.mean().item():.4f}")
bins = torch.linspace(0, 1, 6).expand(2, 6)
wts = torch.tensor([[0.0, 1.0, 0.0, 0.0, 0.0], [0.2, 0.2, 0.2, 0.2, 0.2]])
print("sample_pdf", [[round(v, 4) for v in r] for r in sample_pdf(bins, wts, 5).tolist()])
torch.manual_seed(5)
print("sample_pdf random", [round(v, 4) for v in sample_pdf(bins, wts, 4, det=False)[1].tolist()])
print("searchsorted", torch.searchsorted(torch.tensor([0.0, 0.5, 0.5, 1.0]), torch.tensor([0.5, 0.7, -1.0, 2.0]), right=True).tolist(),
      torch.searchsorted(torch.tensor([0.0, 0.5, 0.5, 1.0]), torch.tensor([0.5, 0.7]), side="left").tolist())
