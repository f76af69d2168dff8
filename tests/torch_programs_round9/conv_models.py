"""Convolutional models: Conv1d over sequences, a ConvTranspose2d decoder, BatchNorm1d/2d,
GroupNorm, InstanceNorm, Dropout2d, AdaptiveAvgPool/MaxPool, train/eval differences, and
grad-mode nesting (no_grad / enable_grad / inference_mode / set_grad_enabled)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class SeqNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv1d(2, 6, kernel_size=3, padding=1, bias=False)  # BatchNorm follows
        self.bn = nn.BatchNorm1d(6)
        self.c2 = nn.Conv1d(6, 4, kernel_size=3, stride=2, dilation=2, padding_mode="circular", padding=2)
        self.pool = nn.AdaptiveMaxPool1d(3)
        self.fc = nn.Linear(12, 2)

    def forward(self, x):
        x = F.relu(self.bn(self.c1(x)))
        x = self.pool(F.gelu(self.c2(x)))
        return self.fc(x.flatten(1))


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.ConvTranspose2d(4, 8, 3, stride=2, padding=1, output_padding=1),
            nn.GroupNorm(2, 8),
            nn.LeakyReLU(0.2),
            nn.Dropout2d(0.25),
            nn.ConvTranspose2d(8, 3, 4, stride=2, padding=1, bias=False),
            nn.InstanceNorm2d(3, affine=True),
            nn.Tanh(),
        )
        self.head = nn.Sequential(
            nn.Conv2d(3, 5, 3, padding="same", bias=False),
            nn.BatchNorm2d(5),
            nn.ReLU6(),
            nn.AdaptiveAvgPool2d((1, 1)),
            nn.Flatten(),
            nn.Linear(5, 1),
        )

    def forward(self, z):
        img = self.net(z)
        return img, self.head(img)


seq = SeqNet()
x = torch.randn(5, 2, 10)
y = torch.randint(0, 2, (5,))
opt = torch.optim.RMSprop(seq.parameters(), lr=1e-2, momentum=0.5)
for step in range(6):
    opt.zero_grad()
    loss = F.cross_entropy(seq(x), y)
    loss.backward()
    opt.step()
    print(f"seq step {step} loss {loss.item():.5f}")
print(seq.bn.running_mean, seq.bn.running_var)
seq.eval()
print(seq(x))

dec = Decoder()
z = torch.randn(2, 4, 3, 3)
img, score = dec(z)
print(img.shape, score.shape)
opt = torch.optim.Adam(dec.parameters(), lr=3e-3, betas=(0.5, 0.999))
for step in range(4):
    opt.zero_grad()
    img, score = dec(z)
    loss = F.binary_cross_entropy_with_logits(score, torch.ones_like(score)) + img.pow(2).mean()
    loss.backward()
    opt.step()
    print(f"dec step {step} loss {loss.item():.5f}")
dec.eval()
img, score = dec(z)
print(score, img[0, 0, :2, :4])
print(F.adaptive_avg_pool2d(torch.arange(30.0).view(1, 1, 5, 6), (2, 4)))
print(F.max_pool2d(torch.arange(16.0).view(1, 1, 4, 4), 2, return_indices=True))
print(F.avg_pool1d(torch.arange(7.0).view(1, 1, 7), 3, stride=2, ceil_mode=True, count_include_pad=False))

# grad modes
w = torch.ones(2, requires_grad=True)
with torch.no_grad():
    a = w * 2
    with torch.enable_grad():
        b = w * 3
    c = w * 4
print(a.requires_grad, b.requires_grad, c.requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    d = w * 5
    print(d.requires_grad, torch.is_inference_mode_enabled(), d.is_inference())
with torch.set_grad_enabled(False):
    e = w + 1
torch.set_grad_enabled(True)
print(e.requires_grad, (w + 1).requires_grad)


@torch.no_grad()
def evaluate(t):
    return (t * w).sum()


print(evaluate(torch.ones(2)).requires_grad, evaluate(torch.ones(2)))
with torch.autograd.set_grad_enabled(False):
    print(seq(x).requires_grad)
print(seq(x).requires_grad, seq(x).grad_fn.name())
