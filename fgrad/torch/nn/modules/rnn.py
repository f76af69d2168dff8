"""Recurrent layers: `RNN`, `LSTM`, `GRU` and their cells.

Parameters have PyTorch's names, shapes, gate order (LSTM: i, f, g, o; GRU: r, z, n) and
initialisation U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)).  A layer projects the whole
input sequence with one matmul.  `LSTM` and `GRU` on a tensor input then run the whole
recurrence of each layer direction as one op (`fgrad.ops.rnn`: its backward is one
backward-in-time primitive; ``StackBackward0``, as PyTorch names the output's node); `RNN`,
the cells and PackedSequence inputs run one fused cell op per time step (its fgrad
definition gives the gradient), the outputs stacked.

Example::

    >>> import fgrad.torch as torch
    >>> lstm = torch.nn.LSTM(3, 4, num_layers=2, batch_first=True)
    >>> out, (h, c) = lstm(torch.randn(2, 5, 3))
    >>> out.shape, h.shape, c.shape
    (torch.Size([2, 5, 4]), torch.Size([2, 2, 4]), torch.Size([2, 2, 4]))
"""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

import fgrad.numpy as fnp
import fgrad.torch as torch
import fgrad.torch._conventions as _conv

import fgrad.torch.nn.functional as F
import fgrad.torch.nn.init as init
from ....ops.rnn import gru_sequence_p, lstm_sequence_p
from .._defop import defop
from ..parameter import Parameter
from ..utils.rnn import (PackedSequence, _packed_to_padded_time_major, _padded_to_packed_like,
                         pad_packed_sequence)
from .module import Module
from fgrad.torch.types import Device, DType, Tensor
from typing import Any

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]


# ---------------------------------------------------------------------------------------
# one time step, as a single op


def _carrying(fn, state_args: tuple, multi: bool):
    """``fn`` (a step's definition, returning the new states first) with one more, last
    argument ``keep`` (a constant (B, 1) bool array): where ``keep`` is False a sequence is
    past its end (a PackedSequence input), and its states are carried unchanged
    (``where(keep, new, old)`` inside the step's op, so a step is one op and one node)."""

    def step(*args):
        *args, keep = args
        out = fn(*args)
        if not multi:
            return fnp.where(keep, out, args[state_args[0]])
        out = list(out)
        for k, i in enumerate(state_args):
            out[k] = fnp.where(keep, out[k], args[i])
        return tuple(out)

    return step


def _step_op(name: str, key, fn, args, state_args: tuple, keep, multi: bool = False):
    """`defop` of a step; with ``keep`` (see `_carrying`) the states carried where it is False."""
    if keep is not None:
        fn, key, args = _carrying(fn, state_args, multi), key + ("carry",), args + (keep,)
    return defop(name, key, fn, args, multi=multi)


def _rnn_step(xg, h, w_hh, b_hh, nonlinearity: str, keep=None):
    """``act(xg + h @ w_hh.T + b_hh)`` with ``xg = x @ w_ih.T + b_ih`` precomputed (``keep``:
    see `_carrying`)."""
    relu = nonlinearity == "relu"
    has_b = b_hh is not None

    def fn(xg, h, w, *b):
        z = xg + fnp.matmul(h, fnp.swapaxes(w, -1, -2))
        if has_b:
            z = z + b[0]
        return fnp.maximum(z, 0) if relu else fnp.tanh(z)

    args = (xg, h, w_hh) + ((b_hh,) if has_b else ())
    return _step_op("ReluBackward0" if relu else "TanhBackward0", ("rnn_step", relu, has_b), fn, args, (1,),
                    keep)


def _lstm_step(xg, h, c, w_hh, b_hh, keep=None, w_hr=None):
    """One LSTM step: returns ``(h', c')`` (``keep``: see `_carrying`); with ``w_hr`` (an
    LSTM with ``proj_size``) ``h'`` is projected: ``(o * tanh(c')) @ w_hr.T``.

    The op also outputs the gate activations and ``tanh(c')`` (dropped here): the
    backward program reads them as saved outputs instead of recomputing the step's matmul,
    sigmoids and tanhs (each activation's derivative is written with its output)."""
    has_b = b_hh is not None
    proj = w_hr is not None

    def fn(xg, h, c, w, *rest):
        g = xg + fnp.matmul(h, fnp.swapaxes(w, -1, -2))
        if has_b:
            g = g + rest[0]
        s = _conv.sigmoid(g)  # one call for the three sigmoid gates (PyTorch's formula)
        si, sf, _, so = fnp.split(s, 4, axis=-1)
        tg = fnp.tanh(fnp.split(g, 4, axis=-1)[2])
        c2 = sf * c + si * tg
        tc = fnp.tanh(c2)
        h2 = so * tc
        if proj:
            h2 = fnp.matmul(h2, fnp.swapaxes(rest[-1], -1, -2))
        return h2, c2, s, tg, tc

    args = (xg, h, c, w_hh) + ((b_hh,) if has_b else ()) + ((w_hr,) if proj else ())
    return _step_op("MmBackward0" if proj else "MulBackward0", ("lstm_step", has_b, proj, "saved_gates"), fn,
                    args, (1, 2), keep, multi=True)[:2]


def _lstm_sequence(xg, state, w_hh, b_hh, reverse: bool):
    """A whole LSTM layer direction as one op (`fgrad.ops.rnn.lstm_sequence_p`): returns
    ``(hs, (h_last, c_last))``.  The op also outputs each step's cell state, gate
    activations and ``tanh(c_t)`` (dropped here); its backward reads them and runs the
    backward-in-time recurrence in one primitive."""
    has_b = b_hh is not None

    def fn(xg, h, c, w, *b):
        return lstm_sequence_p.bind(xg, h, c, w, *b, reverse=reverse)

    args = (xg, state[0], state[1], w_hh) + ((b_hh,) if has_b else ())
    hs, c = defop("StackBackward0", ("lstm_sequence", has_b, reverse), fn, args, multi=True)[:2]
    return hs, (hs[0 if reverse else -1], c)


def _gru_sequence(xg, state, w_hh, b_hh, reverse: bool):
    """A whole GRU layer direction as one op (`fgrad.ops.rnn.gru_sequence_p`): returns
    ``(hs, (h_last,))``; the op's gate activations and ``W_hn h + b_hn`` (dropped here) are
    what its backward reads."""
    has_b = b_hh is not None

    def fn(xg, h, w, *b):
        return gru_sequence_p.bind(xg, h, w, *b, reverse=reverse)

    args = (xg, state[0], w_hh) + ((b_hh,) if has_b else ())
    hs = defop("StackBackward0", ("gru_sequence", has_b, reverse), fn, args, multi=True)[0]
    return hs, (hs[0 if reverse else -1],)


def _gru_step(xg, h, w_hh, b_hh, keep=None):
    """One GRU step: ``h' = (1 - z) * n + z * h`` (``keep``: see `_carrying`).  Like
    `_lstm_step`, the op also outputs ``r``, ``z``, ``n`` and ``W_hn h + b_hn`` (dropped here)
    so that its backward reads them instead of running the step's matmul and activations
    again."""
    has_b = b_hh is not None

    def fn(xg, h, w, *b):
        hg = fnp.matmul(h, fnp.swapaxes(w, -1, -2))
        if has_b:
            hg = hg + b[0]
        xr, xz, xn = fnp.split(xg, 3, axis=-1)
        hr, hz, hn = fnp.split(hg, 3, axis=-1)
        r = _conv.sigmoid(xr + hr)
        z = _conv.sigmoid(xz + hz)
        n = fnp.tanh(xn + r * hn)
        return (1 - z) * n + z * h, r, z, n, hn

    args = (xg, h, w_hh) + ((b_hh,) if has_b else ())
    return _step_op("AddBackward0", ("gru_step", has_b, "saved_gates"), fn, args, (1,), keep,
                    multi=True)[0]


# ---------------------------------------------------------------------------------------
# multi-layer recurrent networks


class RNNBase(Module):
    """Shared machinery of `RNN`, `LSTM` and `GRU`.

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.nn.LSTM(2, 3), torch.nn.RNNBase)
        True
        >>> torch.nn.RNNBase('GRU', 2, 3).weight_ih_l0.shape
        torch.Size([9, 2])
    """

    __constants__ = ["mode", "input_size", "hidden_size", "num_layers", "bias", "batch_first", "dropout",
                     "bidirectional", "proj_size"]

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 proj_size: int = 0, device: Device = None, dtype: DType | None = None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        num_directions = 2 if bidirectional else 1
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an "
                             "element "
                             "being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero "
                          "dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and "
                          f"num_layers={num_layers}",
                          stacklevel=2)
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if proj_size and mode != "LSTM":
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        real_hidden_size = proj_size if proj_size > 0 else hidden_size
        if mode == "LSTM":
            gate_size = 4 * hidden_size
        elif mode == "GRU":
            gate_size = 3 * hidden_size
        elif mode in ("RNN_TANH", "RNN_RELU"):
            gate_size = hidden_size
        else:
            raise ValueError("Unrecognized RNN mode: " + mode)
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input_size = input_size if layer == 0 else real_hidden_size * num_directions
                w_ih = Parameter(torch.empty((gate_size, layer_input_size), **factory_kwargs))
                w_hh = Parameter(torch.empty((gate_size, real_hidden_size), **factory_kwargs))
                b_ih = Parameter(torch.empty(gate_size, **factory_kwargs))
                b_hh = Parameter(torch.empty(gate_size, **factory_kwargs))
                layer_params = (w_ih, w_hh, b_ih, b_hh) if bias else (w_ih, w_hh)
                suffix = "_reverse" if direction == 1 else ""
                param_names = ["weight_ih_l{}{}", "weight_hh_l{}{}"]
                if bias:
                    param_names += ["bias_ih_l{}{}", "bias_hh_l{}{}"]
                if proj_size > 0:  # PyTorch's order: the projection last
                    layer_params += (Parameter(torch.empty((proj_size, hidden_size), **factory_kwargs)),)
                    param_names += ["weight_hr_l{}{}"]
                param_names = [x.format(layer, suffix) for x in param_names]
                for name, param in zip(param_names, layer_params):
                    setattr(self, name, param)
                self._flat_weights_names.extend(param_names)
                self._all_weights.append(param_names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list:
        return [getattr(self, wn) if hasattr(self, wn) else None for wn in self._flat_weights_names]

    @property
    def all_weights(self) -> list:
        return [[getattr(self, weight) for weight in weights] for weights in self._all_weights]

    def flatten_parameters(self) -> None:
        pass

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        if "proj_size" not in self.__dict__:
            self.proj_size = 0

    # -- forward ----------------------------------------------------------------------------
    def _prepare(self, input, hx, n_states: int):
        """(time-major input, initial states, is_batched, T, valid): ``valid`` (a (T, B) bool
        NumPy array) marks the real steps of a PackedSequence input (None for a tensor
        input)."""
        valid = None
        if isinstance(input, PackedSequence):
            padded, lengths = _packed_to_padded_time_major(input)
            valid = np.arange(padded.size(0))[:, None] < np.asarray(lengths)[None, :]
            input = padded.transpose(0, 1) if self.batch_first else padded
        elif not isinstance(input, torch.Tensor):
            raise TypeError(f"{self._get_name()}: input must be a Tensor or a PackedSequence, got "
                            f"{type(input).__name__}")
        batch_dim = 0 if self.batch_first else 1
        if input.dim() not in (2, 3):
            raise ValueError(f"{self._get_name()}: Expected input to be 2D or 3D, got {input.dim()}D instead")
        is_batched = input.dim() == 3
        if not is_batched:
            input = input.unsqueeze(batch_dim)
        if input.size(-1) != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.size(-1)}")
        if self.batch_first:
            input = input.transpose(0, 1)
        T, B = input.size(0), input.size(1)
        if T == 0:
            raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
        D = 2 if self.bidirectional else 1
        expected = (self.num_layers * D, B, self.hidden_size)
        h_expected = (self.num_layers * D, B, self.proj_size or self.hidden_size)  # c keeps hidden_size
        states = []
        if hx is None:
            states = [torch.zeros(h_expected if i == 0 else expected, dtype=input.dtype, device=input.device)
                      for i in range(n_states)]
        else:
            hs = list(hx) if isinstance(hx, (tuple, list)) else [hx]
            if len(hs) != n_states:
                raise RuntimeError(f"{self._get_name()}: expected {n_states} hidden state tensors, got "
                                   f"{len(hs)}")
            for s in hs:
                if not is_batched:
                    if s.dim() != 2:
                        raise RuntimeError("For unbatched 2-D input, hx should also be 2-D but got "
                                           f"{s.dim()}-D "
                                           "tensor")
                    s = s.unsqueeze(1)
                elif s.dim() != 3:
                    raise RuntimeError(f"For batched 3-D input, hx should also be 3-D but got {s.dim()}-D "
                                       "tensor")
                want = h_expected if not states else expected
                if tuple(s.shape) != want:
                    which = f"hidden[{len(states)}]" if n_states == 2 else "hidden"  # LSTM: hidden[0], [1]
                    raise RuntimeError(f"Expected {which} size {want}, got {list(s.size())}")
                states.append(s)
        return input, states, is_batched, T, valid

    def _run(self, input, states, step, valid=None, packed=None, sequence=None):
        """Run all layers and directions; ``step(xg_t, state_tuple, w_hh, b_hh, keep) ->
        state_tuple`` with the first state the output (``keep``: see `_carrying`), or, for a
        tensor input, ``sequence(xg, state_tuple, w_hh, b_hh, reverse) -> (outputs,
        state_tuple)`` (one op for all steps) when given.
        Where ``valid[t]`` is False (past the end of a packed sequence) the state is carried
        unchanged, so the final states are each sequence's last real step, in either
        direction.  For a PackedSequence input (``packed``) the
        dropout between layers is drawn over the packed data, as PyTorch draws it."""
        D = 2 if self.bidirectional else 1
        layer_input = input
        finals = [[] for _ in states]
        keeps = None
        if valid is not None:  # each step's (B, 1) mask; all-True steps carry nothing
            keeps = [None if v.all() else np.ascontiguousarray(v[:, None]) for v in valid]
        for layer in range(self.num_layers):
            dir_outputs = []
            for direction in range(D):
                sfx = "_reverse" if direction == 1 else ""
                w_ih = getattr(self, f"weight_ih_l{layer}{sfx}")
                w_hh = getattr(self, f"weight_hh_l{layer}{sfx}")
                b_ih = getattr(self, f"bias_ih_l{layer}{sfx}") if self.bias else None
                b_hh = getattr(self, f"bias_hh_l{layer}{sfx}") if self.bias else None
                xg = F.linear(layer_input, w_ih, b_ih)
                k = layer * D + direction
                st = tuple(s[k] for s in states)
                if sequence is not None and valid is None:
                    out, st = sequence(xg, st, w_hh, b_hh, direction == 1)
                    for i, s in enumerate(st):
                        finals[i].append(s)
                    dir_outputs.append(out)
                    continue
                T = xg.size(0)
                order = range(T - 1, -1, -1) if direction == 1 else range(T)
                outs = [None] * T
                xgs = xg.unbind(0)  # one node: the backward concatenates the steps' gradients
                extra = {"w_hr": getattr(self, f"weight_hr_l{layer}{sfx}")} if self.proj_size else {}
                for t in order:
                    st = step(xgs[t], st, w_hh, b_hh, None if keeps is None else keeps[t], **extra)
                    outs[t] = st[0]
                for i, s in enumerate(st):
                    finals[i].append(s)
                dir_outputs.append(torch.stack(outs, 0))
            layer_output = dir_outputs[0] if D == 1 else torch.cat(dir_outputs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                if packed is None:
                    layer_output = F.dropout(layer_output, self.dropout, True)
                else:
                    layer_output = layer_output * self._packed_dropout_mask(packed, layer_output)
            layer_input = layer_output
        return layer_input, [torch.stack(f, 0) for f in finals]

    def _packed_dropout_mask(self, packed: PackedSequence, like):
        """The dropout mask (0 or 1/(1-p)) of the packed rows (PyTorch draws one value per
        element of the packed data, in its order), laid out as ``like`` (T, B, features)."""
        ones = torch.ones((packed.data.size(0), like.size(-1)), dtype=like.dtype, device=like.device)
        keep = F.dropout(ones, self.dropout, True)
        mask, _ = pad_packed_sequence(PackedSequence(keep, packed.batch_sizes, packed.sorted_indices,
                                                     packed.unsorted_indices))
        return mask

    def _finish(self, output, finals, is_batched, packed=None):
        if isinstance(packed, PackedSequence):
            return _padded_to_packed_like(output, packed), finals
        if self.batch_first:
            output = output.transpose(0, 1)
        if not is_batched:
            output = output.squeeze(0 if self.batch_first else 1)
            finals = [f.squeeze(1) for f in finals]
        return output, finals


class RNN(RNNBase):
    """Elman RNN: ``h_t = act(W_ih x_t + b_ih + W_hh h_{t-1} + b_hh)`` (act = tanh or relu).

    Example::

        >>> import fgrad.torch as torch
        >>> rnn = torch.nn.RNN(input_size=2, hidden_size=3, num_layers=2)
        >>> out, h = rnn(torch.zeros(5, 1, 2))
        >>> out.shape, h.shape
        (torch.Size([5, 1, 3]), torch.Size([2, 1, 3]))
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{self.nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, *args, **kwargs)

    def forward(self, input: Tensor | PackedSequence,
                hx: Tensor | None = None) -> tuple[Tensor | PackedSequence, Tensor]:
        x, states, batched, _, valid = self._prepare(input, hx, 1)
        nl = self.nonlinearity

        def step(xg, st, w_hh, b_hh, keep):
            return (_rnn_step(xg, st[0], w_hh, b_hh, nl, keep),)

        out, finals = self._run(x, states, step, valid, input if valid is not None else None)
        out, finals = self._finish(out, finals, batched, input)
        return out, finals[0]


class LSTM(RNNBase):
    """Long short-term memory: returns ``output, (h_n, c_n)``.

    Example::

        >>> import fgrad.torch as torch
        >>> lstm = torch.nn.LSTM(2, 3, batch_first=True)
        >>> out, (h, c) = lstm(torch.zeros(1, 5, 2))
        >>> out.shape, h.shape, c.shape
        (torch.Size([1, 5, 3]), torch.Size([1, 1, 3]), torch.Size([1, 1, 3]))
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def forward(self, input: Tensor | PackedSequence, hx: tuple[Tensor, Tensor] | None = None
                ) -> tuple[Tensor | PackedSequence, tuple[Tensor, Tensor]]:
        x, states, batched, _, valid = self._prepare(input, hx, 2)

        def step(xg, st, w_hh, b_hh, keep, w_hr=None):
            return _lstm_step(xg, st[0], st[1], w_hh, b_hh, keep, w_hr)

        out, finals = self._run(x, states, step, valid, input if valid is not None else None,
                                None if self.proj_size else _lstm_sequence)
        out, finals = self._finish(out, finals, batched, input)
        return out, (finals[0], finals[1])


class GRU(RNNBase):
    """Gated recurrent unit: returns ``output, h_n``.

    Example::

        >>> import fgrad.torch as torch
        >>> gru = torch.nn.GRU(2, 3, bidirectional=True)
        >>> out, h = gru(torch.zeros(5, 1, 2))
        >>> out.shape, h.shape
        (torch.Size([5, 1, 6]), torch.Size([2, 1, 3]))
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input: Tensor | PackedSequence,
                hx: Tensor | None = None) -> tuple[Tensor | PackedSequence, Tensor]:
        x, states, batched, _, valid = self._prepare(input, hx, 1)

        def step(xg, st, w_hh, b_hh, keep):
            return (_gru_step(xg, st[0], w_hh, b_hh, keep),)

        out, finals = self._run(x, states, step, valid, input if valid is not None else None,
                                _gru_sequence)
        out, finals = self._finish(out, finals, batched, input)
        return out, finals[0]


# ---------------------------------------------------------------------------------------
# cells


class RNNCellBase(Module):
    """The base of `RNNCell`, `LSTMCell` and `GRUCell`: the ``weight_ih``/``weight_hh``/``bias_*``
    parameters and their uniform initialization.

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.nn.GRUCell(2, 3), torch.nn.RNNCellBase)
        True
        >>> torch.nn.LSTMCell(2, 3).weight_ih.shape
        torch.Size([12, 2])
    """

    __constants__ = ["input_size", "hidden_size", "bias"]

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device: Device = None,
                 dtype: DType | None = None) -> None:
        factory_kwargs = {"device": device, "dtype": dtype}
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = Parameter(torch.empty((num_chunks * hidden_size, input_size), **factory_kwargs))
        self.weight_hh = Parameter(torch.empty((num_chunks * hidden_size, hidden_size), **factory_kwargs))
        if bias:
            self.bias_ih = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
            self.bias_hh = Parameter(torch.empty(num_chunks * hidden_size, **factory_kwargs))
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _batch(self, input, hx, n):
        if input.dim() not in (1, 2):
            raise ValueError(f"{self._get_name()}: Expected input to be 1D or 2D, got {input.dim()}D instead")
        if hx is not None:
            hs = list(hx) if isinstance(hx, (tuple, list)) else [hx]
            for h in hs:
                if h.dim() not in (1, 2):
                    raise ValueError(f"{self._get_name()}: Expected hidden to be 1D or 2D, got {h.dim()}D "
                                     "instead")
        batched = input.dim() == 2
        if not batched:
            input = input.unsqueeze(0)
        if input.size(-1) != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.size(-1)} expected "
                               f"{self.input_size}")
        if hx is None:
            z = torch.zeros(input.size(0), self.hidden_size, dtype=input.dtype, device=input.device)
            hs = [z] * n
        else:
            hs = [h if batched else h.unsqueeze(0) for h in (list(hx) if isinstance(hx, (tuple,
                                                                                         list)) else [hx])]
        return input, hs, batched


class RNNCell(RNNCellBase):
    """``h' = act(W_ih x + b_ih + W_hh h + b_hh)``.

    Example::

        >>> import fgrad.torch as torch
        >>> cell = torch.nn.RNNCell(2, 3)
        >>> cell(torch.zeros(4, 2)).shape
        torch.Size([4, 3])
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device: Device = None, dtype: DType | None = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        x, hs, batched = self._batch(input, hx, 1)
        xg = F.linear(x, self.weight_ih, self.bias_ih)
        h = _rnn_step(xg, hs[0], self.weight_hh, self.bias_hh, self.nonlinearity)
        return h if batched else h.squeeze(0)


class LSTMCell(RNNCellBase):
    """One LSTM step: ``(h', c') = cell(x, (h, c))``.

    Example::

        >>> import fgrad.torch as torch
        >>> cell = torch.nn.LSTMCell(2, 3)
        >>> h, c = cell(torch.zeros(4, 2))
        >>> h.shape, c.shape
        (torch.Size([4, 3]), torch.Size([4, 3]))
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Device = None,
                 dtype: DType | None = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]:
        x, hs, batched = self._batch(input, hx, 2)
        xg = F.linear(x, self.weight_ih, self.bias_ih)
        h, c = _lstm_step(xg, hs[0], hs[1], self.weight_hh, self.bias_hh)
        return (h, c) if batched else (h.squeeze(0), c.squeeze(0))


class GRUCell(RNNCellBase):
    """One GRU step.

    Example::

        >>> import fgrad.torch as torch
        >>> cell = torch.nn.GRUCell(2, 3)
        >>> cell(torch.zeros(4, 2), torch.zeros(4, 3)).shape
        torch.Size([4, 3])
    """

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Device = None,
                 dtype: DType | None = None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor:
        x, hs, batched = self._batch(input, hx, 1)
        xg = F.linear(x, self.weight_ih, self.bias_ih)
        h = _gru_step(xg, hs[0], self.weight_hh, self.bias_hh)
        return h if batched else h.squeeze(0)
