"""A small ResNet with BatchNorm trained on synthetic CIFAR-sized images, on fgrad.torch.

Written as the usual PyTorch CIFAR-10 training scripts write it (the ``BasicBlock`` of
``torchvision``'s ResNet: two 3x3 ``Conv2d`` + ``BatchNorm2d`` with a projection shortcut when
the shape changes), at a small width: 3x32x32 images, a stem convolution, three stages of one
block each (8, 16, 32 channels), ``AdaptiveAvgPool2d`` and a ``Linear`` head. Training: SGD
with momentum, Nesterov and weight decay, ``CosineAnnealingLR``, ``CrossEntropyLoss`` with
label smoothing, random horizontal flips done with tensor ops, ``model.train()`` /
``model.eval()`` and ``torch.no_grad()`` evaluation. The data: each class is a colour pattern
(stripes of a class-specific orientation and frequency) plus noise, drawn with tensor ops so no
download is needed. The only change from the PyTorch program is the import line (pass
``--torch``, or set ``FGRAD_EXAMPLE_BACKEND=torch``, to run the same code on PyTorch).

Run: ``python examples/torch_resnet_cifar.py [--torch] [--epochs N] [--batches N]``.
"""

import math
import os
import sys

if "--torch" in sys.argv or os.environ.get("FGRAD_EXAMPLE_BACKEND") == "torch":
    import torch
else:
    import fgrad.torch as torch

nn = torch.nn
F = torch.nn.functional
DataLoader = torch.utils.data.DataLoader
TensorDataset = torch.utils.data.TensorDataset

num_epochs = 2
max_batches = None
for i, arg in enumerate(sys.argv):
    if arg == "--epochs":
        num_epochs = int(sys.argv[i + 1])
    if arg == "--batches":
        max_batches = int(sys.argv[i + 1])

torch.manual_seed(0)
NUM_CLASSES = 4


def make_images(n):
    """Stripes whose angle and frequency depend on the class, in a class colour, plus noise."""
    labels = torch.randint(0, NUM_CLASSES, (n,))
    coords = torch.arange(32, dtype=torch.float32)
    yy, xx = torch.meshgrid(coords, coords, indexing="ij")
    angle = labels.float() * (math.pi / NUM_CLASSES) + 0.2 * torch.rand(n)
    freq = 0.3 + 0.1 * labels.float()
    cos, sin = torch.cos(angle)[:, None, None], torch.sin(angle)[:, None, None]
    phase = (xx * cos + yy * sin) * freq[:, None, None]
    stripes = torch.sin(phase).unsqueeze(1)  # (n, 1, 32, 32)
    colour = torch.stack([torch.ones(n), labels.float() / NUM_CLASSES, 1 - labels.float() / NUM_CLASSES], 1)
    images = stripes * colour[:, :, None, None] + 0.5 * torch.randn(n, 3, 32, 32)
    return images, labels


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, in_planes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, planes, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(planes),
            )

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out += self.shortcut(x)
        return F.relu(out)


class ResNet(nn.Module):
    def __init__(self, widths=(8, 16, 32), num_classes=NUM_CLASSES):
        super().__init__()
        self.conv1 = nn.Conv2d(3, widths[0], kernel_size=3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(widths[0])
        layers, in_planes = [], widths[0]
        for i, w in enumerate(widths):
            layers.append(BasicBlock(in_planes, w, stride=1 if i == 0 else 2))
            in_planes = w
        self.layers = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(in_planes, num_classes)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.layers(out)
        out = torch.flatten(self.pool(out), 1)
        return self.fc(out)


train_x, train_y = make_images(256)
test_x, test_y = make_images(128)
train_loader = DataLoader(TensorDataset(train_x, train_y), batch_size=32, shuffle=True)
test_loader = DataLoader(TensorDataset(test_x, test_y), batch_size=64)

model = ResNet()
print(model.layers[1])
print("parameters:", sum(p.numel() for p in model.parameters() if p.requires_grad))
criterion = nn.CrossEntropyLoss(label_smoothing=0.1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.02, momentum=0.9, nesterov=True, weight_decay=5e-4)
scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=num_epochs)


def random_flip(images):
    flip = torch.rand(images.size(0)) < 0.5
    return torch.where(flip[:, None, None, None], images.flip(3), images)


def evaluate():
    model.eval()
    correct = 0
    loss_sum = 0.0
    with torch.no_grad():
        for images, labels in test_loader:
            outputs = model(images)
            loss_sum += criterion(outputs, labels).item() * labels.size(0)
            _, predicted = outputs.max(1)
            correct += predicted.eq(labels).sum().item()
    return loss_sum / len(test_x), correct / len(test_x)


for epoch in range(num_epochs):
    model.train()
    train_loss = 0.0
    correct = total = 0
    for batch_idx, (inputs, targets) in enumerate(train_loader):
        if max_batches is not None and batch_idx >= max_batches:
            break
        inputs = random_flip(inputs)
        optimizer.zero_grad()
        outputs = model(inputs)
        loss = criterion(outputs, targets)
        loss.backward()
        optimizer.step()
        train_loss += loss.item()
        _, predicted = outputs.max(1)
        total += targets.size(0)
        correct += predicted.eq(targets).sum().item()
        if batch_idx % 4 == 0:
            print(f"epoch {epoch} batch {batch_idx} loss {loss.item():.4f} acc {correct / total:.4f}")
    scheduler.step()
    test_loss, test_acc = evaluate()
    print(f"epoch {epoch}: train loss {train_loss / (batch_idx + 1):.4f}, test loss {test_loss:.4f}, "
          f"test accuracy {test_acc:.4f}, lr {scheduler.get_last_lr()[0]:.5f}")
print("running_mean of the first BatchNorm: %s" % [round(v, 4) for v in model.bn1.running_mean[:4].tolist()])
