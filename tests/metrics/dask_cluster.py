"""The Dask tests' cluster: a LocalCluster of two worker processes, one thread each (kernel
threads too), and its client; each test module makes one (its own module-scoped fixture)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import distributed


@contextmanager
def local_client() -> Iterator[distributed.Client]:
    """Two worker processes, one thread each, and a client connected to them."""
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            env={"MTCOMPUTE_THREADS": "1"},
        ) as cluster,
        distributed.Client(cluster) as connected,
    ):
        yield connected
