"""How the tables spell their data: most CUDA names map to HIP by a prefix change, so a family
lists those names once and adds the irregular pairs by hand."""

from __future__ import annotations


def by_prefix(old: str, new: str, names: str) -> dict[str, str]:
    """{name: new + name[len(old):]} for each whitespace-separated name (all start with `old`)."""
    table = {}
    for name in names.split():
        if not name.startswith(old):
            raise ValueError(f"table entry {name!r} does not start with {old!r}")
        table[name] = new + name[len(old):]
    return table


def camel(words: str) -> str:
    """MAX_THREADS_PER_BLOCK -> MaxThreadsPerBlock (CUDA driver enums -> HIP enumerators)."""
    return "".join(w.capitalize() for w in words.lower().split("_"))


def by_enum_words(old: str, new: str, names: str) -> dict[str, str]:
    """CU_DEVICE_ATTRIBUTE_WARP_SIZE -> hipDeviceAttributeWarpSize, for old='CU_DEVICE_ATTRIBUTE_',
    new='hipDeviceAttribute'."""
    return {old + w: new + camel(w) for w in names.split()}
