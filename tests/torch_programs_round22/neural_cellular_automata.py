"""Growing neural cellular automata (Mordvintsev et al. 2020, distill.pub "Growing Neural
Cellular Automata" and its PyTorch ports): a 16-channel cell state, perception by a depthwise
conv2d (groups=channels) of identity and Sobel filters built with torch.outer and stacked with
repeat, a 1x1-conv update rule with a zero-initialised last layer, stochastic updates by a
random fire mask, living masks by max_pool2d over alpha, a sample pool with the worst sample
reseeded, per-parameter gradient normalisation, damage by a circular mask from meshgrid, and
flip/rot90 augmentation of the target."""
# ruff: noqa: E501

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
CH, SIZE = 16, 16


def make_target(size):
    y, x = torch.meshgrid(torch.linspace(-1, 1, size), torch.linspace(-1, 1, size), indexing="ij")
    r = torch.sqrt(x ** 2 + y ** 2)
    alpha = (r < 0.6).float()
    rgb = torch.stack([0.5 + 0.5 * x, 0.5 - 0.5 * y, (r < 0.3).float()]) * alpha
    return torch.cat([rgb, alpha[None]], 0)


class CAModel(nn.Module):
    def __init__(self, ch=CH, hidden=64, fire_rate=0.5):
        super().__init__()
        self.ch, self.fire_rate = ch, fire_rate
        ident = torch.tensor([0.0, 1.0, 0.0])
        ident = torch.outer(ident, ident)
        sobel_x = torch.outer(torch.tensor([1.0, 2.0, 1.0]), torch.tensor([-1.0, 0.0, 1.0])) / 8.0
        kernel = torch.stack([ident, sobel_x, sobel_x.T])
        self.register_buffer("kernel", kernel.repeat(ch, 1, 1)[:, None])
        self.w1 = nn.Conv2d(ch * 3, hidden, 1)
        self.w2 = nn.Conv2d(hidden, ch, 1, bias=False)
        with torch.no_grad():
            self.w2.weight.zero_()

    def perceive(self, x):
        return F.conv2d(F.pad(x, (1, 1, 1, 1), mode="circular"), self.kernel, groups=self.ch)

    def alive(self, x):
        return F.max_pool2d(x[:, 3:4], kernel_size=3, stride=1, padding=1) > 0.1

    def forward(self, x, gen=None):
        pre = self.alive(x)
        dx = self.w2(F.relu(self.w1(self.perceive(x))))
        fire = (torch.rand(x.shape[0], 1, x.shape[2], x.shape[3], generator=gen) <= self.fire_rate).float()
        x = x + dx * fire
        post = self.alive(x)
        return x * (pre & post).float()


def seed(n, ch=CH, size=SIZE):
    x = torch.zeros(n, ch, size, size)
    x[:, 3:, size // 2, size // 2] = 1.0
    return x


target = make_target(SIZE)
print("target", target.shape, round(target.sum().item(), 4), round(target[3].mean().item(), 4))
aug = torch.stack([target, target.flip(1, 2), target.rot90(1, (1, 2)), target.flip(-1)])
print("augmented sums", [round(v, 4) for v in aug[:, :3].sum((1, 2, 3)).tolist()], torch.equal(target.flip(1, 2), target.flip((1, 2))))

ca = CAModel()
print("kernel", ca.kernel.shape, ca.kernel[:3, 0].sum((1, 2)).tolist(), ca.kernel[1, 0].tolist())
p = ca.perceive(seed(1))
print("perception", p.shape, round(p.abs().sum().item(), 4), p[0, 3 * 3 + 1, SIZE // 2, SIZE // 2 - 1:SIZE // 2 + 2].tolist())
print("params", sum(q.numel() for q in ca.parameters()), "w2 zero", ca.w2.weight.abs().sum().item())
gen = torch.Generator().manual_seed(3)
x = seed(2)
with torch.no_grad():
    y = ca(x, gen)
print("identity at init", torch.equal(x, y), "alive cells", int(ca.alive(x).sum()))

opt = torch.optim.Adam(ca.parameters(), lr=2e-3)
sched = torch.optim.lr_scheduler.MultiStepLR(opt, [30], 0.3)
pool = seed(16)
for it in range(40):
    idx = torch.randperm(16, generator=gen)[:4]
    batch = pool[idx]
    with torch.no_grad():
        losses_b = ((batch[:, :4] - target) ** 2).mean((1, 2, 3))
    worst = losses_b.argmax()
    batch[worst] = seed(1)[0]
    steps = int(torch.randint(8, 13, (1,), generator=gen))
    x = batch
    for _ in range(steps):
        x = ca(x, gen)
    loss = ((x[:, :4] - target) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    with torch.no_grad():
        for q in ca.parameters():
            q.grad /= q.grad.norm() + 1e-8
    opt.step()
    sched.step()
    pool[idx] = x.detach()
    if it % 10 == 0 or it == 39:
        print(f"it {it:2d} steps {steps} loss {loss.item():.5f} alive {int(ca.alive(x).sum())} lr {sched.get_last_lr()[0]:.5f}")

yy, xx = torch.meshgrid(torch.arange(SIZE), torch.arange(SIZE), indexing="ij")
damage = ((xx - 10) ** 2 + (yy - 6) ** 2 < 9).float()
with torch.no_grad():
    x = seed(1)
    for _ in range(12):
        x = ca(x, gen)
    before = ((x[:, :4] - target) ** 2).mean().item()
    x = x * (1 - damage)
    hurt = ((x[:, :4] - target) ** 2).mean().item()
    for _ in range(12):
        x = ca(x, gen)
    after = ((x[:, :4] - target) ** 2).mean().item()
print(f"damage cells {int(damage.sum())} loss before {before:.5f} damaged {hurt:.5f} regrown {after:.5f}")
print("rgba range", [round(v, 4) for v in x[0, :4].amax((1, 2)).tolist()])
