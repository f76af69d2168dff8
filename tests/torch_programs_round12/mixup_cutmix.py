"""Data-augmentation regularisers as in timm-style training scripts: mixup with a Beta-sampled
lambda (torch.distributions.Beta and numpy-free torch sampling), cutmix boxes from
sqrt(1 - lambda), soft targets from one_hot and label smoothing, cross_entropy with
probability targets and label_smoothing, random erasing by masked assignment, and a small CNN
trained with them."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Beta

torch.manual_seed(0)
num_classes = 3
x = torch.randn(8, 1, 8, 8)
y = torch.tensor([0, 1, 2, 0, 1, 2, 0, 1])
beta = Beta(torch.tensor(0.4), torch.tensor(0.4))
lam = beta.sample()
print(lam, beta.mean, beta.log_prob(torch.tensor(0.3)))
perm = torch.randperm(8)
mixed = lam * x + (1 - lam) * x[perm]
soft = lam * F.one_hot(y, num_classes).float() + (1 - lam) * F.one_hot(y[perm], num_classes).float()
print(perm, soft[:3])


def smooth(t, eps):
    return t * (1 - eps) + eps / num_classes


print(smooth(F.one_hot(y[:2], num_classes).float(), 0.1))
logits = torch.randn(8, num_classes)
print(F.cross_entropy(logits, soft), F.cross_entropy(logits, y, label_smoothing=0.1), F.cross_entropy(logits, smooth(F.one_hot(y, 3).float(), 0.1)))
print(F.cross_entropy(logits, soft, label_smoothing=0.2), -(soft * F.log_softmax(logits, 1)).sum(1).mean())


def rand_bbox(H, W, lam):
    cut = torch.sqrt(1.0 - lam)
    ch, cw = int(H * cut), int(W * cut)
    cy, cx = torch.randint(H, (1,)).item(), torch.randint(W, (1,)).item()
    y1, y2 = max(cy - ch // 2, 0), min(cy + ch // 2, H)
    x1, x2 = max(cx - cw // 2, 0), min(cx + cw // 2, W)
    return y1, y2, x1, x2


lam2 = Beta(1.0, 1.0).sample()
y1, y2, x1, x2 = rand_bbox(8, 8, lam2)
cm = x.clone()
cm[:, :, y1:y2, x1:x2] = x[perm][:, :, y1:y2, x1:x2]
lam_adj = 1 - (y2 - y1) * (x2 - x1) / 64
print(lam2, (y1, y2, x1, x2), lam_adj, (cm != x).any(dim=(1, 2, 3)))


def random_erase(img, p=0.5):
    out = img.clone()
    for i in range(img.shape[0]):
        if torch.rand(1).item() < p:
            h, w = torch.randint(2, 5, (2,)).tolist()
            top, left = torch.randint(0, 8 - h, (1,)).item(), torch.randint(0, 8 - w, (1,)).item()
            out[i, :, top:top + h, left:left + w] = torch.randn(img.shape[1], h, w)
    return out


er = random_erase(x)
print((er != x).flatten(1).sum(1))

model = nn.Sequential(nn.Conv2d(1, 6, 3, padding=1), nn.BatchNorm2d(6), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, num_classes))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
for step in range(30):
    lam = beta.sample()
    perm = torch.randperm(8)
    xm = lam * x + (1 - lam) * x[perm]
    out = model(xm)
    loss = lam * F.cross_entropy(out, y, label_smoothing=0.1) + (1 - lam) * F.cross_entropy(out, y[perm], label_smoothing=0.1)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, f"{lam.item():.4f}", f"{loss.item():.4f}")
model.eval()
print((model(x).argmax(1) == y).float().mean().item(), model[1].running_var)
