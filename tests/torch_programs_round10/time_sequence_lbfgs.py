"""pytorch/examples time_sequence_prediction: two stacked LSTMCells in double precision learn
sine waves with LBFGS (a closure that prints the loss), then predict future steps."""
# ruff: noqa: B007  (written as the published program is)


import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

np.random.seed(2)
T, L, N = 20, 60, 12
x = np.empty((N, L), "int64")
x[:] = np.array(range(L)) + np.random.randint(-4 * T, 4 * T, N).reshape(N, 1)
data = np.sin(x / 1.0 / T).astype("float64")


class Sequence(nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm1 = nn.LSTMCell(1, 16)
        self.lstm2 = nn.LSTMCell(16, 16)
        self.linear = nn.Linear(16, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), 16, dtype=torch.double)
        c_t = torch.zeros(input.size(0), 16, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), 16, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), 16, dtype=torch.double)
        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        return torch.cat(outputs, dim=1)


torch.manual_seed(0)
input = torch.from_numpy(data[3:, :-1])
target = torch.from_numpy(data[3:, 1:])
test_input = torch.from_numpy(data[:3, :-1])
test_target = torch.from_numpy(data[:3, 1:])
seq = Sequence()
seq.double()
print("dtype", next(seq.parameters()).dtype)
criterion = nn.MSELoss()
optimizer = optim.LBFGS(seq.parameters(), lr=0.8, max_iter=8)
for i in range(3):
    print("STEP:", i)
    losses = []

    def closure():
        optimizer.zero_grad()
        out = seq(input)
        loss = criterion(out, target)
        losses.append(loss.item())
        loss.backward()
        return loss

    optimizer.step(closure)
    print("loss:", " ".join(f"{v:.6f}" for v in losses))
    with torch.no_grad():
        future = 10
        pred = seq(test_input, future=future)
        loss = criterion(pred[:, :-future], test_target)
        print(f"test loss: {loss.item():.6f}")
        y = pred.detach().numpy()
    print("future", np.round(y[0, -future:], 4).tolist())
state = optimizer.state[optimizer.param_groups[0]["params"][0]]
print("lbfgs state", state["func_evals"], state["n_iter"], len(state["old_dirs"]))
