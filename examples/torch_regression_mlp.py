"""A tabular regression MLP with Adam, OneCycleLR and early stopping on a validation set, on fgrad.torch.

Written as tutorials on tabular regression write it: a synthetic housing-style dataset (8
features, a nonlinear target with noise) standardised with its training mean and std, a
``Dataset`` subclass, ``random_split`` into training and validation sets, shuffling
``DataLoader``s (``drop_last=True`` for training), an ``nn.Sequential`` MLP of ``Linear(bias=False)`` +
``BatchNorm1d`` + ``ReLU`` + ``Dropout`` layers initialised with ``kaiming_normal_``, ``MSELoss``,
``Adam`` with weight decay, ``OneCycleLR`` stepped every batch, the best model's
``state_dict`` kept with ``copy.deepcopy`` and restored with ``load_state_dict``, and the test
RMSE / MAE under ``torch.inference_mode()``. The only change from the PyTorch program is the
import line (pass ``--torch``, or set ``FGRAD_EXAMPLE_BACKEND=torch``, to run the same code on
PyTorch).

Run: ``python examples/torch_regression_mlp.py [--torch] [--epochs N] [--batches N]``.
"""

import copy
import os
import sys

if "--torch" in sys.argv or os.environ.get("FGRAD_EXAMPLE_BACKEND") == "torch":
    import torch
else:
    import fgrad.torch as torch

nn = torch.nn
Dataset = torch.utils.data.Dataset
DataLoader = torch.utils.data.DataLoader
random_split = torch.utils.data.random_split

num_epochs = 6
max_batches = None
for i, arg in enumerate(sys.argv):
    if arg == "--epochs":
        num_epochs = int(sys.argv[i + 1])
    if arg == "--batches":
        max_batches = int(sys.argv[i + 1])

torch.manual_seed(42)


def make_data(n):
    x = torch.randn(n, 8)
    x[:, 2] = x[:, 2].abs() * 3  # a skewed feature ("rooms")
    y = 2.0 * x[:, 0] - x[:, 1] ** 2 + torch.log1p(x[:, 2]) + 0.5 * x[:, 3] * x[:, 4] + 0.1 * torch.randn(n)
    return x * torch.tensor([1.0, 1.0, 1.0, 2.0, 0.5, 10.0, 1.0, 1.0]), y.unsqueeze(1)


class TabularDataset(Dataset):
    def __init__(self, features, targets):
        self.features = features
        self.targets = targets

    def __len__(self):
        return len(self.features)

    def __getitem__(self, idx):
        return self.features[idx], self.targets[idx]


x_all, y_all = make_data(1200)
x_train, y_train, x_test, y_test = x_all[:1000], y_all[:1000], x_all[1000:], y_all[1000:]
mean, std = x_train.mean(dim=0), x_train.std(dim=0)
dataset = TabularDataset((x_train - mean) / std, y_train)
train_set, val_set = random_split(dataset, [800, 200])
train_loader = DataLoader(train_set, batch_size=64, shuffle=True, drop_last=True)
val_loader = DataLoader(val_set, batch_size=100)


def init_weights(m):
    if isinstance(m, nn.Linear):
        nn.init.kaiming_normal_(m.weight, nonlinearity="relu")
        if m.bias is not None:
            nn.init.zeros_(m.bias)


model = nn.Sequential(
    nn.Linear(8, 64, bias=False), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.1),
    nn.Linear(64, 64, bias=False), nn.BatchNorm1d(64), nn.ReLU(), nn.Dropout(0.1),
    nn.Linear(64, 1),
)
model.apply(init_weights)
print(model)
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)
scheduler = torch.optim.lr_scheduler.OneCycleLR(optimizer, max_lr=1e-2, epochs=num_epochs,
                                                steps_per_epoch=len(train_loader))

best_val, best_state = float("inf"), None
for epoch in range(num_epochs):
    model.train()
    running, batches = 0.0, 0
    for i, (xb, yb) in enumerate(train_loader):
        if max_batches is not None and i >= max_batches:
            break
        optimizer.zero_grad(set_to_none=True)
        loss = criterion(model(xb), yb)
        loss.backward()
        optimizer.step()
        scheduler.step()
        running += loss.item()
        batches += 1
    model.eval()
    with torch.no_grad():
        val_loss = sum(criterion(model(xb), yb).item() * len(xb) for xb, yb in val_loader) / len(val_set)
    if val_loss < best_val:
        best_val, best_state = val_loss, copy.deepcopy(model.state_dict())
    print(f"epoch {epoch}: train mse {running / batches:.4f}, val mse {val_loss:.4f}, "
          f"lr {scheduler.get_last_lr()[0]:.6f}")

model.load_state_dict(best_state)
model.eval()
with torch.inference_mode():
    pred = model((x_test - mean) / std)
    rmse = torch.sqrt(torch.mean((pred - y_test) ** 2)).item()
    mae = torch.mean(torch.abs(pred - y_test)).item()
print(f"best val mse {best_val:.4f}; test rmse {rmse:.4f}, mae {mae:.4f}")
