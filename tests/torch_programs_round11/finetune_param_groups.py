"""Transfer-learning-style fine-tuning as in the torchvision finetuning tutorial: a pretrained
backbone (trained here first), requires_grad_(False) to freeze, a new head, optimizer param
groups with different learning rates and weight decay, add_param_group when unfreezing,
state_dict of the groups, BatchNorm kept in eval mode, and counts of trainable parameters."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(8, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
x = torch.randn(32, 3, 8, 8)
y_old = (x.mean((1, 2, 3)) > 0).long()
y_new = (x[:, 0].mean((1, 2)) > x[:, 1].mean((1, 2))).long() + (x[:, 2].mean((1, 2)) > 0).long()
model = nn.Sequential(backbone, nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for epoch in range(5):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y_old)
    loss.backward()
    opt.step()
print(f"pretraining loss {loss.item():.4f}")


def set_parameter_requires_grad(model, feature_extracting):
    if feature_extracting:
        for param in model.parameters():
            param.requires_grad = False


set_parameter_requires_grad(backbone, True)
head = nn.Linear(8, 3)
model = nn.Sequential(backbone, head)
params_to_update = [p for p in model.parameters() if p.requires_grad]
print("trainable", sum(p.numel() for p in params_to_update), "frozen", sum(p.numel() for p in model.parameters() if not p.requires_grad))
print([n for n, p in model.named_parameters() if p.requires_grad])
opt = torch.optim.Adam(params_to_update, lr=0.01)
backbone.eval()
for epoch in range(8):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y_new)
    loss.backward()
    opt.step()
print(f"head only {loss.item():.4f}", backbone[0].weight.grad is not None, backbone[0].weight.grad.norm().item() > 0, backbone[1].running_mean[:3])

# unfreeze the last block with its own group
for p in backbone[4:].parameters():
    p.requires_grad_(True)
opt.add_param_group({"params": list(backbone[4:].parameters()), "lr": 1e-3, "weight_decay": 1e-4})
print(len(opt.param_groups), [g["lr"] for g in opt.param_groups], [g["weight_decay"] for g in opt.param_groups])
for epoch in range(8):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y_new)
    loss.backward()
    opt.step()
print(f"partial unfreeze {loss.item():.4f}", backbone[4].weight.grad.abs().sum() > 0)
sd = opt.state_dict()
print(sd["param_groups"][1]["params"], sorted(sd["param_groups"][1].keys())[:5], len(sd["state"]))

# discriminative learning rates from scratch: groups by name, no decay on biases and norms
decay, no_decay = [], []
for name, p in model.named_parameters():
    (no_decay if name.endswith("bias") or p.ndim == 1 else decay).append(p)
for p in model.parameters():
    p.requires_grad_(True)
opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.05}, {"params": no_decay, "weight_decay": 0.0}], lr=3e-3)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=[lambda e: 0.9 ** e, lambda e: 1.0])
model.train()
for epoch in range(6):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y_new)
    loss.backward()
    opt.step()
    sched.step()
    print(epoch, f"{loss.item():.4f}", [round(g["lr"], 6) for g in opt.param_groups])
print(len(decay), len(no_decay), backbone[1].num_batches_tracked)
with torch.no_grad():
    acc = (model.eval()(x).argmax(1) == y_new).float().mean()
print(f"accuracy {acc.item():.4f}")
