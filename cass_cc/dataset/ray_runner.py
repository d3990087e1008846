"""The samples as Ray tasks, one per sample (num_cpus=1), answers streamed back as they finish.
ADDRESS is Ray's: "local" starts Ray in this process with the machine's cores, "auto" joins the
cluster this machine belongs to, else a head's host:port."""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import CassError


def ray_pool(jobs: list, address: str) -> Iterator[dict]:
    import ray
    from .sample import process
    try:
        ray.init(address=None if address == "local" else address, log_to_driver=False)
    except ConnectionError as e:
        raise CassError(f"cannot join the Ray cluster at '{address}': {e}") from None
    try:
        task = ray.remote(num_cpus=1)(process)
        pending = [task.remote(*job) for job in jobs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield ray.get(done[0])
    finally:
        ray.shutdown()
