"""The learned value's network, compiled by numba (private: plain float arrays only).

A network is flat: ``weights`` holds every layer's matrix (row-major, inputs by
outputs) then its bias, layer after layer; ``shapes[i] = (inputs, outputs)``.
Hidden layers are ReLU, the last is linear; the caller applies the output's link
(:mod:`.model`). ``buf`` is scratch of at least twice the widest layer.
"""

from __future__ import annotations

import numpy as np

from scoundrel_core.jit import jit, jit_kernel


@jit
def net_one(x: np.ndarray, weights: np.ndarray, shapes: np.ndarray, buf: np.ndarray) -> float:
    """The network's output (before its link) at one input ``x`` (already standardised)."""
    width = buf.shape[0] // 2
    n_in = shapes[0, 0]
    for i in range(n_in):
        buf[i] = x[i]
    src = 0  # the layer's input lives at buf[src:], its output at buf[dst:]
    off = 0
    layers = shapes.shape[0]
    for layer in range(layers):
        n_in = shapes[layer, 0]
        n_out = shapes[layer, 1]
        dst = width - src
        bias = off + n_in * n_out
        for j in range(n_out):
            buf[dst + j] = weights[bias + j]
        for i in range(n_in):
            xi = buf[src + i]
            if xi != 0.0:
                row = off + i * n_out
                for j in range(n_out):
                    buf[dst + j] += xi * weights[row + j]
        if layer < layers - 1:
            for j in range(n_out):
                if buf[dst + j] < 0.0:
                    buf[dst + j] = 0.0
        off = bias + n_out
        src = dst
    return float(buf[src])


@jit_kernel
def net_batch(xs: np.ndarray, mean: np.ndarray, scale: np.ndarray, weights: np.ndarray,
              shapes: np.ndarray, buf: np.ndarray, x: np.ndarray, out: np.ndarray) -> None:
    """``out[r]``: the network's output at row ``r`` of ``xs`` (raw features, standardised
    here by ``mean`` and ``scale``); ``x`` is scratch of one row."""
    for r in range(xs.shape[0]):
        for i in range(xs.shape[1]):
            x[i] = (xs[r, i] - mean[i]) / scale[i]
        out[r] = net_one(x, weights, shapes, buf)
