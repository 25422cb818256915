"""The learned value's network, compiled by numba (private: plain float arrays only).

A network is flat: ``weights`` holds every layer's matrix (row-major, inputs by
outputs) then its bias, layer after layer; ``shapes[i] = (inputs, outputs)``.
Hidden layers are ReLU, the last is linear; the caller applies the output's link
(:mod:`.model`). ``a`` and ``b`` are scratch rows at least as wide as the widest
layer: a layer reads one and writes the other (two arrays, not two halves of one,
so that the compiler may vectorise the inner loop).
"""

from __future__ import annotations

import numpy as np

from scoundrel_core.jit import jit, jit_kernel


@jit
def net_one(x: np.ndarray, weights: np.ndarray, shapes: np.ndarray, a: np.ndarray,
            b: np.ndarray) -> float:
    """The network's output (before its link) at one input ``x``. An input of 0 costs
    nothing: the model folds its standardisation into the first layer for this."""
    layers = shapes.shape[0]
    off = 0
    src = x
    dst = a
    for layer in range(layers):
        n_in = shapes[layer, 0]
        n_out = shapes[layer, 1]
        bias = off + n_in * n_out
        for j in range(n_out):
            dst[j] = weights[bias + j]
        for i in range(n_in):
            xi = src[i]
            if xi != 0.0:
                row = off + i * n_out
                for j in range(n_out):
                    dst[j] += xi * weights[row + j]
        if layer < layers - 1:
            for j in range(n_out):
                if dst[j] < 0.0:
                    dst[j] = 0.0
        off = bias + n_out
        src = dst
        dst = b if dst is a else a
    return float(src[0])


@jit_kernel
def net_batch(xs: np.ndarray, weights: np.ndarray, shapes: np.ndarray, a: np.ndarray,
              b: np.ndarray, out: np.ndarray) -> None:
    """``out[r]``: the network's output at row ``r`` of ``xs``."""
    for r in range(xs.shape[0]):
        out[r] = net_one(xs[r], weights, shapes, a, b)
