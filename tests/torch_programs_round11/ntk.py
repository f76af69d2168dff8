"""The "Neural tangent kernels" tutorial: a small CNN made functional with
torch.func.functional_call, per-sample Jacobians by vmap(jacrev) over detached parameters, the
empirical NTK by einsum over the Jacobians (full, trace and diagonal), and the NTK by
vector products (vjp of jvp) for comparison."""
# ruff: noqa: E501  (written as the published program is)

import torch
import torch.nn as nn
from torch.func import functional_call, jacrev, jvp, vjp, vmap

torch.manual_seed(0)


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 4, (3, 3))
        self.conv2 = nn.Conv2d(4, 4, (3, 3))
        self.conv3 = nn.Conv2d(4, 4, (3, 3))
        self.fc = nn.Linear(4, 3)

    def forward(self, x):
        x = self.conv1(x)
        x = x.relu()
        x = self.conv2(x)
        x = x.relu()
        x = self.conv3(x)
        x = x.relu()
        x = x.mean(dim=(-2, -1))
        x = self.fc(x)
        return x


x_train = torch.randn(5, 3, 8, 8)
x_test = torch.randn(4, 3, 8, 8)
net = CNN()
params = {k: v.detach() for k, v in net.named_parameters()}
print({k: tuple(v.shape) for k, v in params.items()})


def fnet_single(params, x):
    return functional_call(net, params, (x.unsqueeze(0),)).squeeze(0)


def empirical_ntk_jacobian_contraction(fnet_single, params, x1, x2, compute="full"):
    jac1 = vmap(jacrev(fnet_single), (None, 0))(params, x1)
    jac1 = jac1.values()
    jac1 = [j.flatten(2) for j in jac1]
    jac2 = vmap(jacrev(fnet_single), (None, 0))(params, x2)
    jac2 = jac2.values()
    jac2 = [j.flatten(2) for j in jac2]
    einsum_expr = None
    if compute == "full":
        einsum_expr = "Naf,Mbf->NMab"
    elif compute == "trace":
        einsum_expr = "Naf,Maf->NM"
    elif compute == "diagonal":
        einsum_expr = "Naf,Maf->NMa"
    result = torch.stack([torch.einsum(einsum_expr, j1, j2) for j1, j2 in zip(jac1, jac2)])
    result = result.sum(0)
    return result


full = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "full")
print(full.shape)
print(full[0, 0])
trace = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "trace")
print(trace)
diag = empirical_ntk_jacobian_contraction(fnet_single, params, x_train, x_test, "diagonal")
print(diag[:2])
print(torch.allclose(trace, full.diagonal(dim1=-2, dim2=-1).sum(-1), rtol=1e-4, atol=1e-4))


def empirical_ntk_ntk_vps(func, params, x1, x2, compute="full"):
    def get_ntk(x1, x2):
        def func_x1(params):
            return func(params, x1)

        def func_x2(params):
            return func(params, x2)

        output, vjp_fn = vjp(func_x1, params)

        def get_ntk_slice(vec):
            vjps = vjp_fn(vec)
            _, jvps = jvp(func_x2, (params,), vjps)
            return jvps

        basis = torch.eye(output.numel(), dtype=output.dtype, device=output.device).view(output.numel(), -1)
        return vmap(get_ntk_slice)(basis)

    result = vmap(vmap(get_ntk, (None, 0)), (0, None))(x1, x2)
    if compute == "full":
        return result
    if compute == "trace":
        return torch.einsum("NMKK->NM", result)
    if compute == "diagonal":
        return torch.einsum("NMKK->NMK", result)


result_from_ntk_vps = empirical_ntk_ntk_vps(fnet_single, params, x_train, x_test)
print(result_from_ntk_vps.shape)
print(torch.allclose(result_from_ntk_vps, full.transpose(-1, -2), atol=1e-4, rtol=1e-4) or torch.allclose(result_from_ntk_vps, full, atol=1e-4, rtol=1e-4))
print(empirical_ntk_ntk_vps(fnet_single, params, x_train[:2], x_test[:2], "trace"))
