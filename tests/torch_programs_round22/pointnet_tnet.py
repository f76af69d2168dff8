"""PointNet classification (Qi et al. 2017, fxia22/pointnet.pytorch): point clouds of three
synthetic shapes sampled on surfaces, random rotations about the z axis and jitter with clip
as augmentation, an input T-Net and a feature T-Net whose outputs are added to identity matrices
and applied by torch.bmm, shared MLPs as Conv1d(kernel_size=1) with BatchNorm1d over (B, C, N),
a symmetric max over points (torch.max returning indices: the critical points), the feature
transform regulariser ||I - A A^T||, no biases before a BatchNorm, SGD with momentum (several gradients are exactly 0 in
exact arithmetic: Adam would turn their rounding noise into full-size steps) and float64 by
set_default_dtype (in float32 the T-Nets grow a one-ulp difference of the data to the second
decimal within a few epochs), NLL on log_softmax, StepLR, and evaluation in eval mode
including invariance of the global feature to a permutation of the points."""
# ruff: noqa: E501

import math

import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
torch.set_default_dtype(torch.float64)


class TNet(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.conv1, self.conv2 = nn.Conv1d(k, 16, 1, bias=False), nn.Conv1d(16, 32, 1, bias=False)
        self.fc1, self.fc2 = nn.Linear(32, 16, bias=False), nn.Linear(16, k * k)
        self.bn1, self.bn2, self.bn3 = nn.BatchNorm1d(16), nn.BatchNorm1d(32), nn.BatchNorm1d(16)

    def forward(self, x):
        b = x.size(0)
        x = F.relu(self.bn1(self.conv1(x)))
        x = F.relu(self.bn2(self.conv2(x)))
        x = torch.max(x, 2, keepdim=True)[0].view(-1, 32)
        x = F.relu(self.bn3(self.fc1(x)))
        x = self.fc2(x)
        iden = torch.eye(self.k, dtype=x.dtype).flatten().view(1, self.k * self.k).repeat(b, 1)
        return (x + iden).view(-1, self.k, self.k)


class PointNetCls(nn.Module):
    def __init__(self, k=3, feature_transform=True):
        super().__init__()
        self.stn = TNet(3)
        self.fstn = TNet(16) if feature_transform else None
        self.conv1, self.conv2, self.conv3 = nn.Conv1d(3, 16, 1, bias=False), nn.Conv1d(16, 32, 1, bias=False), nn.Conv1d(32, 64, 1, bias=False)
        self.bn1, self.bn2, self.bn3 = nn.BatchNorm1d(16), nn.BatchNorm1d(32), nn.BatchNorm1d(64)
        self.head = nn.Sequential(nn.Linear(64, 32, bias=False), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(p=0.3), nn.Linear(32, k))

    def global_feature(self, x):
        trans = self.stn(x)
        x = torch.bmm(x.transpose(2, 1), trans).transpose(2, 1)
        x = F.relu(self.bn1(self.conv1(x)))
        trans_feat = None
        if self.fstn is not None:
            trans_feat = self.fstn(x)
            x = torch.bmm(x.transpose(2, 1), trans_feat).transpose(2, 1)
        x = F.relu(self.bn2(self.conv2(x)))
        x = self.bn3(self.conv3(x))
        x, crit = torch.max(x, 2)
        return x, crit, trans, trans_feat

    def forward(self, x):
        g, _, trans, trans_feat = self.global_feature(x)
        return F.log_softmax(self.head(g), dim=1), trans, trans_feat


def feature_transform_regularizer(trans):
    d = trans.size(1)
    I = torch.eye(d)[None, :, :]
    return torch.mean(torch.norm(torch.bmm(trans, trans.transpose(2, 1)) - I, dim=(1, 2)))


def sample_shape(kind, n, gen):
    if kind == 0:
        v = torch.randn(n, 3, generator=gen)
        return v / v.norm(dim=1, keepdim=True)
    if kind == 1:
        return torch.rand(n, 3, generator=gen) * 2 - 1
    t = torch.rand(n, generator=gen) * 2 * math.pi
    z = torch.rand(n, generator=gen) * 2 - 1
    return torch.stack([torch.cos(t), torch.sin(t), z], 1)


def rotate_z(pts, angle):
    c, s = math.cos(angle), math.sin(angle)
    R = torch.tensor([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]], dtype=pts.dtype)
    return pts @ R.T


gen = torch.Generator().manual_seed(1)
N = 64
labels = torch.arange(36) % 3
clouds = torch.stack([sample_shape(int(k), N, gen) for k in labels])
print("clouds", clouds.shape, [round(v, 4) for v in clouds.abs().mean((0, 1)).tolist()])
ang = (torch.rand(36, generator=gen) * 2 * math.pi).tolist()
aug = torch.stack([rotate_z(c, a) for c, a in zip(clouds, ang)])
aug = aug + torch.clamp(0.02 * torch.randn(aug.shape, generator=gen), -0.05, 0.05)
print("rotation keeps norms", torch.allclose(aug.norm(dim=2), clouds.norm(dim=2), atol=0.1), round((aug - clouds).abs().max().item(), 4))

model = PointNetCls()
print("params", sum(p.numel() for p in model.parameters()), "bn buffers", len([n for n, _ in model.named_buffers()]))
opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=10, gamma=0.5)
for ep in range(6):
    model.train()
    perm = torch.randperm(36, generator=gen)
    tot = 0.0
    for i in range(0, 36, 12):
        idx = perm[i:i + 12]
        pts = aug[idx].transpose(2, 1)
        pred, trans, trans_feat = model(pts)
        loss = F.nll_loss(pred, labels[idx]) + 0.001 * feature_transform_regularizer(trans_feat)
        opt.zero_grad()
        loss.backward()
        opt.step()
        tot += loss.item()
    sched.step()
    if ep % 2 == 1:
        model.eval()
        with torch.no_grad():
            pred, trans, tf = model(clouds.transpose(2, 1))
        acc = (pred.argmax(1) == labels).float().mean().item()
        print(f"ep {ep:2d} loss {tot / 3:.4f} acc {acc:.3f} reg {feature_transform_regularizer(tf).item():.4f} lr {sched.get_last_lr()[0]:.5f}")

model.eval()
with torch.no_grad():
    x = clouds[:4].transpose(2, 1)
    g1, crit, trans, _ = model.global_feature(x)
    perm = torch.randperm(N, generator=gen)
    g2, crit2, _, _ = model.global_feature(x[:, :, perm])
    print("permutation invariant", torch.allclose(g1, g2, atol=1e-5), "critical points", [len(torch.unique(c)) for c in crit], crit.shape)
    print("critical index map", torch.equal(perm[crit2], crit))
    print("input transform det", [round(v, 3) for v in torch.linalg.det(trans).tolist()])
    logp, _, _ = model(x)
    print("probs", [[round(v, 3) for v in r] for r in logp.exp().tolist()])
