"""A small ResNet with torchvision's BasicBlock written inline (downsample with a 1x1 conv and
BatchNorm, zero-init of the last BN gamma, kaiming_normal_ fan_out), trained with SGD nesterov,
weight decay, label smoothing and OneCycleLR; then eval accuracy, a top-k and a confusion
matrix."""
# ruff: noqa: B007, E501  (written as the published program is)


import torch
import torch.nn as nn
import torch.nn.functional as F


def conv3x3(in_planes, out_planes, stride=1):
    return nn.Conv2d(in_planes, out_planes, kernel_size=3, stride=stride, padding=1, bias=False)


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = conv3x3(inplanes, planes, stride)
        self.bn1 = nn.BatchNorm2d(planes)
        self.relu = nn.ReLU(inplace=True)
        self.conv2 = conv3x3(planes, planes)
        self.bn2 = nn.BatchNorm2d(planes)
        self.downsample = downsample

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


class ResNet(nn.Module):
    def __init__(self, layers, num_classes=4, zero_init_residual=True):
        super().__init__()
        self.inplanes = 8
        self.conv1 = nn.Conv2d(3, 8, kernel_size=3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(8)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(8, layers[0])
        self.layer2 = self._make_layer(16, layers[1], stride=2)
        self.avgpool = nn.AdaptiveAvgPool2d((1, 1))
        self.fc = nn.Linear(16, num_classes)
        for m in self.modules():
            if isinstance(m, nn.Conv2d):
                nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
            elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
                nn.init.constant_(m.weight, 1)
                nn.init.constant_(m.bias, 0)
        if zero_init_residual:
            for m in self.modules():
                if isinstance(m, BasicBlock) and m.bn2.weight is not None:
                    nn.init.constant_(m.bn2.weight, 0)

    def _make_layer(self, planes, blocks, stride=1):
        downsample = None
        if stride != 1 or self.inplanes != planes:
            downsample = nn.Sequential(
                nn.Conv2d(self.inplanes, planes, 1, stride=stride, bias=False), nn.BatchNorm2d(planes))
        layers = [BasicBlock(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes
        for _ in range(1, blocks):
            layers.append(BasicBlock(self.inplanes, planes))
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer2(self.layer1(x))
        x = torch.flatten(self.avgpool(x), 1)
        return self.fc(x)


torch.manual_seed(3)
model = ResNet([2, 1])
print("params", sum(p.numel() for p in model.parameters() if p.requires_grad))
print("buffers", [n for n, _ in model.named_buffers()][:3])
x = torch.randn(32, 3, 16, 16)
y = (x[:, 0].mean((1, 2)) > 0).long() + 2 * (x[:, 1].mean((1, 2)) > 0).long()
print("label counts", torch.bincount(y, minlength=4).tolist())
decay, no_decay = [], []
for name, p in model.named_parameters():
    (no_decay if p.ndim <= 1 else decay).append(p)
opt = torch.optim.SGD([{"params": decay, "weight_decay": 5e-4}, {"params": no_decay, "weight_decay": 0.0}],
                      lr=0.1, momentum=0.9, nesterov=True)
epochs, steps = 4, 4
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.2, epochs=epochs, steps_per_epoch=steps)
crit = nn.CrossEntropyLoss(label_smoothing=0.1)
lrs = []
for epoch in range(epochs):
    model.train()
    perm = torch.randperm(32)
    total = 0.0
    for s in range(steps):
        idx = perm[s * 8:(s + 1) * 8]
        opt.zero_grad(set_to_none=True)
        loss = crit(model(x[idx]), y[idx])
        loss.backward()
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
        total += loss.item()
    print(f"epoch {epoch} loss {total / steps:.4f} lr {lrs[-1]:.6f} momentum {opt.param_groups[0]['momentum']:.4f}")
print("lr schedule", [round(v, 5) for v in lrs[:6]])
model.eval()
with torch.no_grad():
    logits = model(x)
    pred = logits.argmax(1)
    print("accuracy", (pred == y).float().mean().item())
    top2 = logits.topk(2, dim=1).indices
    print("top2 acc", (top2 == y[:, None]).any(1).float().mean().item())
    conf = torch.zeros(4, 4, dtype=torch.long)
    for t, p in zip(y, pred):
        conf[t, p] += 1
    print(conf)
    print("probs", F.softmax(logits[:2], dim=1))
print("bn running var", model.layer1[0].bn1.running_var[:3])
