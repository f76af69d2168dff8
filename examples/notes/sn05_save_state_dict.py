"""pytorch-study-notes.md: save and load a model's parameters (block 5)."""
import os
import tempfile

import fgrad.torch as torch
from fgrad.torch import nn


class TheModelClass(nn.Module):
    def __init__(self, n_in, n_hidden, n_out):
        super().__init__()
        self.fc1 = nn.Linear(n_in, n_hidden)
        self.fc2 = nn.Linear(n_hidden, n_out)
        self.register_buffer('calls', torch.zeros(1))

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


args, kwargs = (4, 8), {'n_out': 2}
PATH = os.path.join(tempfile.mkdtemp(), 'model.pth')
the_model = TheModelClass(*args, **kwargs)
x = torch.linspace(-1, 1, 12).view(3, 4)

# save model
torch.save(the_model.state_dict(), PATH)

# load model
loaded = TheModelClass(*args, **kwargs)
print(loaded.load_state_dict(torch.load(PATH)))
print(list(torch.load(PATH).keys()))
print(all(torch.equal(p, q) for p, q in zip(the_model.parameters(), loaded.parameters())))
print(torch.equal(the_model(x), loaded(x)))
print(loaded)
