"""Glow (Kingma & Dhariwal 2018) on 4x4 two-channel "images": ActNorm with data-dependent
initialisation on the first batch (a registered buffer flag), the invertible 1x1 convolution
in its LU parametrisation (torch.linalg.lu of a random rotation from torch.linalg.qr, a
fixed permutation, strictly triangular masks, sign(s) * exp(log|s|) on the diagonal, the
log-determinant as H * W * sum(log|s|) checked against torch.linalg.slogdet), affine
coupling with a zero-initialised last convolution and a sigmoid scale, squeeze by
view/permute, a multi-scale split with a learned Gaussian prior; bits per dimension,
exact inversion, and samples at a temperature."""
# ruff: noqa: E501

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)


def make_data(n):
    # a smooth random field: low-frequency sinusoids with a random phase, two correlated channels
    g = torch.linspace(0, 1, 4)
    yy, xx = torch.meshgrid(g, g, indexing="ij")
    phase = torch.rand(n, 1, 1, 1) * 2 * math.pi
    amp = 0.5 + 0.5 * torch.rand(n, 1, 1, 1)
    c0 = amp * torch.sin(2 * xx + phase) + 0.1 * torch.randn(n, 1, 4, 4)
    c1 = 0.7 * c0 + amp * torch.cos(3 * yy - phase) * 0.5 + 0.1 * torch.randn(n, 1, 4, 4)
    return torch.cat([c0, c1], 1)


def squeeze(x):
    b, c, h, w = x.shape
    x = x.view(b, c, h // 2, 2, w // 2, 2).permute(0, 1, 3, 5, 2, 4)
    return x.reshape(b, c * 4, h // 2, w // 2)


def unsqueeze(x):
    b, c, h, w = x.shape
    x = x.view(b, c // 4, 2, 2, h, w).permute(0, 1, 4, 2, 5, 3)
    return x.reshape(b, c // 4, h * 2, w * 2)


class ActNorm(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.loc = nn.Parameter(torch.zeros(1, c, 1, 1))
        self.log_scale = nn.Parameter(torch.zeros(1, c, 1, 1))
        self.register_buffer("initialized", torch.tensor(0, dtype=torch.uint8))

    def forward(self, x):
        if self.initialized.item() == 0:
            with torch.no_grad():
                flat = x.transpose(0, 1).flatten(1)
                self.loc.copy_(-flat.mean(1).view(1, -1, 1, 1))
                self.log_scale.copy_(-torch.log(flat.std(1) + 1e-6).view(1, -1, 1, 1))
                self.initialized.fill_(1)
        y = (x + self.loc) * torch.exp(self.log_scale)
        return y, x.shape[2] * x.shape[3] * self.log_scale.sum()

    def reverse(self, y):
        return y * torch.exp(-self.log_scale) - self.loc


class InvConv1x1LU(nn.Module):
    def __init__(self, c):
        super().__init__()
        w, _ = torch.linalg.qr(torch.randn(c, c))
        P, L, U = torch.linalg.lu(w)
        s = torch.diagonal(U)
        self.register_buffer("P", P)
        self.register_buffer("sign_s", torch.sign(s))
        self.register_buffer("l_mask", torch.tril(torch.ones(c, c), -1))
        self.register_buffer("eye", torch.eye(c))
        self.L = nn.Parameter(L)
        self.U = nn.Parameter(torch.triu(U, 1))
        self.log_s = nn.Parameter(torch.log(s.abs()))

    def weight(self):
        L = self.L * self.l_mask + self.eye
        U = self.U * self.l_mask.T + torch.diag(self.sign_s * torch.exp(self.log_s))
        return self.P @ L @ U

    def forward(self, x):
        w = self.weight()
        return F.conv2d(x, w[:, :, None, None]), x.shape[2] * x.shape[3] * self.log_s.sum()

    def reverse(self, y):
        return F.conv2d(y, torch.linalg.inv(self.weight())[:, :, None, None])


class Coupling(nn.Module):
    def __init__(self, c, hidden=32):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(c // 2, hidden, 3, padding=1), nn.ReLU(),
            nn.Conv2d(hidden, hidden, 1), nn.ReLU(),
            nn.Conv2d(hidden, c, 3, padding=1))
        nn.init.zeros_(self.net[-1].weight)
        nn.init.zeros_(self.net[-1].bias)

    def params(self, xa):
        h = self.net(xa)
        shift, raw = h[:, 0::2], h[:, 1::2]
        return shift, torch.sigmoid(raw + 2.0)

    def forward(self, x):
        xa, xb = x.chunk(2, 1)
        shift, scale = self.params(xa)
        yb = (xb + shift) * scale
        return torch.cat([xa, yb], 1), torch.log(scale).flatten(1).sum(1)

    def reverse(self, y):
        ya, yb = y.chunk(2, 1)
        shift, scale = self.params(ya)
        return torch.cat([ya, yb / scale - shift], 1)


class FlowStep(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.layers = nn.ModuleList([ActNorm(c), InvConv1x1LU(c), Coupling(c)])

    def forward(self, x):
        logdet = 0
        for layer in self.layers:
            x, ld = layer(x)
            logdet = logdet + ld
        return x, logdet

    def reverse(self, y):
        for layer in reversed(self.layers):
            y = layer.reverse(y)
        return y


class Glow(nn.Module):
    def __init__(self, steps=3):
        super().__init__()
        self.level1 = nn.ModuleList([FlowStep(8) for _ in range(steps)])
        self.level2 = nn.ModuleList([FlowStep(16) for _ in range(steps)])
        self.prior1 = nn.Conv2d(4, 8, 3, padding=1)  # the split-off half's prior from the kept half
        nn.init.zeros_(self.prior1.weight)
        nn.init.zeros_(self.prior1.bias)
        self.prior2 = nn.Parameter(torch.zeros(1, 32, 1, 1))

    @staticmethod
    def gaussian_log_p(x, mean, log_sd):
        return (-0.5 * math.log(2 * math.pi) - log_sd - 0.5 * (x - mean) ** 2 * torch.exp(-2 * log_sd)).flatten(1).sum(1)

    def forward(self, x):
        logdet = torch.zeros(x.shape[0])
        h = squeeze(x)
        for step in self.level1:
            h, ld = step(h)
            logdet = logdet + ld
        h, z1 = h.chunk(2, 1)
        mean1, log_sd1 = self.prior1(h).chunk(2, 1)
        log_p = self.gaussian_log_p(z1, mean1, log_sd1)
        h = squeeze(h)
        for step in self.level2:
            h, ld = step(h)
            logdet = logdet + ld
        mean2, log_sd2 = self.prior2.chunk(2, 1)
        log_p = log_p + self.gaussian_log_p(h, mean2, log_sd2)
        return log_p + logdet, (z1, h)

    def reverse(self, z1, z2):
        h = z2
        for step in reversed(self.level2):
            h = step.reverse(h)
        h = unsqueeze(h)
        h = torch.cat([h, z1], 1)
        for step in reversed(self.level1):
            h = step.reverse(h)
        return unsqueeze(h)

    def sample(self, n, temperature):
        mean2, log_sd2 = self.prior2.chunk(2, 1)
        z2 = mean2 + torch.exp(log_sd2) * temperature * torch.randn(n, 16, 1, 1)
        h = z2
        for step in reversed(self.level2):
            h = step.reverse(h)
        h = unsqueeze(h)
        mean1, log_sd1 = self.prior1(h).chunk(2, 1)
        z1 = mean1 + torch.exp(log_sd1) * temperature * torch.randn_like(mean1)
        h = torch.cat([h, z1], 1)
        for step in reversed(self.level1):
            h = step.reverse(h)
        return unsqueeze(h)


x_train, x_test = make_data(256), make_data(64)
dims = x_train[0].numel()
print("data", tuple(x_train.shape), f"mean {x_train.mean():.4f} std {x_train.std():.4f}")

# squeeze is a permutation
s = squeeze(x_train[:2])
print("squeeze", tuple(s.shape), "round trip", torch.equal(unsqueeze(s), x_train[:2]))

model = Glow()
conv = model.level1[0].layers[1]
w = conv.weight()
sign, logabs = torch.linalg.slogdet(w)
print(f"invconv weight orthogonal: {torch.dist(w @ w.T, torch.eye(8)).item() < 1e-12}, slogdet {sign.item():+.0f} |log|det|| < 1e-12: {abs(logabs.item()) < 1e-12}, sum log|s| {conv.log_s.sum().item():.6f}")

with torch.no_grad():
    log_px, _ = model(x_train[:128])  # data-dependent ActNorm initialisation
an = model.level1[0].layers[0]
h0 = squeeze(x_train[:128]) * 1
print("actnorm initialised:", an.initialized.item(), "first-step output std", [f"{v:.4f}" for v in ((h0 + an.loc) * an.log_scale.exp()).transpose(0, 1).flatten(1).std(1)[:4].tolist()])


def bits_per_dim(log_px):
    return (-log_px / (dims * math.log(2))).mean()


print(f"initial bits/dim train {bits_per_dim(log_px).item():.5f}")

opt = torch.optim.Adam(model.parameters(), lr=2e-3)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=40, gamma=0.5)
for epoch in range(1, 81):
    perm = torch.randperm(256)
    for i in range(0, 256, 64):
        xb = x_train[perm[i:i + 64]]
        log_px, _ = model(xb)
        loss = bits_per_dim(log_px)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        opt.step()
    sched.step()
    if epoch % 20 == 0:
        with torch.no_grad():
            test_bpd = bits_per_dim(model(x_test)[0])
        print(f"epoch {epoch:3d} train {loss.item():.5f} test {test_bpd.item():.5f} lr {sched.get_last_lr()[0]:.5f}")

with torch.no_grad():
    log_px, (z1, z2) = model(x_test)
    x_rec = model.reverse(z1, z2)
    print("inversion error below 1e-12:", (x_rec - x_test).abs().max().item() < 1e-12)
    for step in (model.level1[0], model.level2[2]):
        conv = step.layers[1]
        sign, logabs = torch.linalg.slogdet(conv.weight())
        print(f"LU logdet {conv.log_s.sum().item():.6f} slogdet {logabs.item():.6f} sign {sign.item():+.0f}")
    print("z2 mean/std", f"{z2.mean().item():.4f}", f"{z2.std().item():.4f}")
    for t in (0.0, 0.7, 1.0):
        torch.manual_seed(1)
        xs = model.sample(200, t)
        corr = torch.corrcoef(torch.stack([xs[:, 0].flatten(), xs[:, 1].flatten()]))[0, 1]
        print(f"T={t}: sample mean {xs.mean().item():.4f} std {xs.std().item():.4f} channel corr {corr.item():.4f}")
    data_corr = torch.corrcoef(torch.stack([x_test[:, 0].flatten(), x_test[:, 1].flatten()]))[0, 1]
    print(f"data channel corr {data_corr.item():.4f}")

# the change of variables by brute force: the Jacobian of the whole flow for one image
x1 = x_test[:1].clone()


def flow_z(x):
    _, (z1, z2) = model(x.view(1, 2, 4, 4))
    return torch.cat([z1.flatten(), z2.flatten()])


J = torch.autograd.functional.jacobian(flow_z, x1.flatten())
with torch.no_grad():
    _, ld = torch.linalg.slogdet(J)
    logdet = 0
    h = squeeze(x1)
    for step in model.level1:
        h, d = step(h)
        logdet = logdet + d
    h = squeeze(h.chunk(2, 1)[0])
    for step in model.level2:
        h, d = step(h)
        logdet = logdet + d
print(f"Jacobian {tuple(J.shape)}: slogdet {ld.item():.6f}, accumulated logdet {logdet.item():.6f}")
