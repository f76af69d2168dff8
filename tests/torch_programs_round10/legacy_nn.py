"""Older student code kept running: an AlexNet-style net with nn.CrossMapLRN2d (Lua torch's
cross-channel LRN, which is not F.local_response_norm), nn.LocalResponseNorm for comparison,
nn.NLLLoss2d on per-pixel log-probabilities (a segmentation head) and an nn.Container built
with keyword modules; warnings silenced as such code does."""

import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

warnings.filterwarnings("ignore", category=FutureWarning)
torch.manual_seed(2)
x = torch.randn(2, 7, 3, 3)
for size in (2, 3, 5):
    lrn = nn.CrossMapLRN2d(size, alpha=0.5, beta=0.75, k=1.0)
    other = nn.LocalResponseNorm(size, alpha=0.5, beta=0.75, k=1.0)
    a, b = lrn(x), other(x)
    print(lrn, "sum", round(a.sum().item(), 5), "vs LocalResponseNorm", round(b.sum().item(), 5))
    print("  channel sums", [round(v, 4) for v in a.sum((0, 2, 3)).tolist()])
xg = x.clone().requires_grad_()
nn.CrossMapLRN2d(5, 1e-2, 0.75, 2.0)(xg).mul(torch.arange(7.0).view(1, 7, 1, 1)).sum().backward()
print("lrn grad", [round(v, 5) for v in xg.grad.sum((0, 2, 3)).tolist()])
print(nn.CrossMapLRN2d(3))


class Seg(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(inplace=True),
                                      nn.CrossMapLRN2d(3, alpha=1e-3, beta=0.75, k=1.0),
                                      nn.Conv2d(8, 8, 3, padding=1), nn.ReLU(inplace=True),
                                      nn.LocalResponseNorm(3))
        self.classifier = nn.Conv2d(8, 4, 1)

    def forward(self, x):
        return F.log_softmax(self.classifier(self.features(x)), dim=1)


net = Seg()
img = torch.randn(3, 3, 6, 6)
mask = torch.randint(0, 4, (3, 6, 6))
mask[0, 0, :3] = 255
crit = nn.NLLLoss2d(ignore_index=255)
print(crit)
opt = torch.optim.SGD(net.parameters(), lr=0.5, momentum=0.9)
for it in range(8):
    opt.zero_grad()
    loss = crit(net(img), mask)
    loss.backward()
    opt.step()
    if it % 2 == 1:
        print(f"iter {it} loss {loss.item():.5f}")
w = torch.tensor([1.0, 2.0, 0.5, 1.0])
print("weighted", round(nn.NLLLoss2d(weight=w, ignore_index=255)(net(img), mask).item(), 5))
print("sum", round(nn.NLLLoss2d(reduction="sum", ignore_index=255)(net(img), mask).item(), 4))
print("none", tuple(nn.NLLLoss2d(reduction="none", ignore_index=255)(net(img), mask).shape))
pred = net(img).argmax(1)
valid = mask != 255
print("pixel acc", round((pred[valid] == mask[valid]).float().mean().item(), 4))

c = nn.Container(conv=nn.Conv2d(1, 2, 3), act=nn.ReLU())
print(c)
print([n for n, _ in c.named_children()], sum(p.numel() for p in c.parameters()))
print(isinstance(c, nn.Module), "conv" in c._modules)
c.add_module("pool", nn.MaxPool2d(2))
y = torch.randn(1, 1, 6, 6)
for m in c.children():
    y = m(y)
print("container out", tuple(y.shape))
print("state", list(c.state_dict().keys()))
