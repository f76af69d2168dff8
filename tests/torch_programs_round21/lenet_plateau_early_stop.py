"""A LeNet-5 training script in the style of course notebooks and pytorch/examples/mnist: the net
written as nn.Sequential over an OrderedDict (Conv2d, Tanh, AvgPool2d, Flatten, Linear),
synthetic digit-like images through TensorDataset/DataLoader, SGD with momentum and nesterov,
ReduceLROnPlateau in mode "max" on validation accuracy (threshold_mode "abs", cooldown,
min_lr), early stopping with patience and the best weights kept with copy.deepcopy of the
state_dict, a confusion matrix from bincount, and per-class precision/recall."""
# ruff: noqa: E501

import copy
from collections import OrderedDict

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(11)


def make_digits(n, noise):
    """Three classes of 12x12 images: a vertical bar, a horizontal bar, a diagonal."""
    y = torch.arange(n) % 3
    x = torch.zeros(n, 1, 12, 12)
    x[y == 0, 0, :, 5:7] = 1.0
    x[y == 1, 0, 5:7, :] = 1.0
    eye = torch.eye(12)
    x[y == 2, 0] = eye + eye.roll(1, 1)
    return x + noise * torch.randn_like(x), y


x_train, y_train = make_digits(96, 0.8)
x_val, y_val = make_digits(48, 0.8)
train_loader = DataLoader(TensorDataset(x_train, y_train), batch_size=16, shuffle=True, generator=torch.Generator().manual_seed(1))
val_loader = DataLoader(TensorDataset(x_val, y_val), batch_size=32)

model = nn.Sequential(OrderedDict([
    ("c1", nn.Conv2d(1, 4, kernel_size=3, padding=1)), ("t1", nn.Tanh()), ("s2", nn.AvgPool2d(2)),
    ("c3", nn.Conv2d(4, 8, kernel_size=3)), ("t3", nn.Tanh()), ("s4", nn.AvgPool2d(2)),
    ("flat", nn.Flatten()), ("f5", nn.Linear(8 * 2 * 2, 16)), ("t5", nn.Tanh()), ("f6", nn.Linear(16, 3)),
]))
print(model)
print("f5 is model[7]:", model.f5 is model[7], "slice", model[:3])

optimizer = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.9, nesterov=True, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, mode="max", factor=0.5, patience=1, threshold=0.01, threshold_mode="abs", cooldown=1, min_lr=0.01)


def evaluate(loader):
    model.eval()
    loss, correct, preds = 0.0, 0, []
    with torch.no_grad():
        for xb, yb in loader:
            out = model(xb)
            loss += F.cross_entropy(out, yb, reduction="sum").item()
            pred = out.argmax(dim=1)
            correct += pred.eq(yb.view_as(pred)).sum().item()
            preds.append(pred)
    return loss / len(loader.dataset), correct / len(loader.dataset), torch.cat(preds)


best_acc, best_state, bad_epochs, patience = -1.0, None, 0, 4
for epoch in range(1, 16):
    model.train()
    for xb, yb in train_loader:
        optimizer.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()
    val_loss, val_acc, _ = evaluate(val_loader)
    scheduler.step(val_acc)
    lr = optimizer.param_groups[0]["lr"]
    print(f"epoch {epoch:2d} train loss {loss.item():.4f} val loss {val_loss:.4f} val acc {val_acc:.4f} lr {lr:.4f} bad {scheduler.num_bad_epochs}")
    if val_acc > best_acc:
        best_acc, best_state, bad_epochs = val_acc, copy.deepcopy(model.state_dict()), 0
    else:
        bad_epochs += 1
        if bad_epochs >= patience:
            print("early stopping at epoch", epoch)
            break

model.load_state_dict(best_state)
val_loss, val_acc, preds = evaluate(val_loader)
print(f"restored best: val loss {val_loss:.4f} acc {val_acc:.4f}")
confusion = torch.bincount(y_val * 3 + preds, minlength=9).reshape(3, 3)
print("confusion\n", confusion)
precision = confusion.diag() / confusion.sum(0).clamp(min=1)
recall = confusion.diag().float() / confusion.sum(1)
print("precision", [round(v, 4) for v in precision.tolist()], "recall", [round(v, 4) for v in recall.tolist()])
print("state keys", list(best_state.keys())[:4], best_state["c1.weight"].shape)
print("scheduler state", {k: v for k, v in scheduler.state_dict().items() if k in ("best", "num_bad_epochs", "cooldown_counter", "mode", "last_epoch")})
