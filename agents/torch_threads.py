"""One torch thread for an agent's decision, in whatever process it plays (and for any other small network's
work that must not change the caller's thread count: the value fitter's MLP).

An agent process computes on one thread (``prepare``). In the caller's own process (``--isolation none``, a
notebook, ``play_game``) torch would use every core for a decision's batches of a few positions: on 2 busy cores
a small network's forward pass then costs several times the CPU of one thread, and a CPU budget (``az:seconds``)
buys that many fewer simulations. :func:`one_torch_thread` runs a decision on one thread and gives the caller its
own thread count back.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def one_torch_thread() -> Iterator[None]:
    """Run the block with torch on one intra-op thread; the caller's count is restored after it, even on an error."""
    import torch

    threads = torch.get_num_threads()
    if threads == 1:
        yield
        return
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)
