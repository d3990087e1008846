"""Which processor the emulated device is. gfx1100 (targets.EMULATED_DEVICE), unless the program
carries code only for other processors the emulator runs (one built with
--cass-offload-arch=gfx1201): then the first of those, so the program runs as on such a card.
cass-run decides from the program file before it starts and tells the emulated runtime through
DEVICE_ARCH_ENV."""

from __future__ import annotations

import os

from .. import targets
from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

from ..driver.hip_fatbin import read_bundles
from ..errors import CassError

DEVICE_ARCH_ENV = "CASS_EMU_DEVICE_ARCH"
# hipcc's programs carry their bundles in .hip_fatbin; cass-nvcc's binary route puts its bundle in
# place of nvcc's fatbin, in .nv_fatbin
SECTIONS = (".hip_fatbin", ".nv_fatbin")


def program_processors(path: str) -> list[str]:
    """The AMD processors of the code objects bundled in the program file, in bundle order;
    empty for a file without any (a script, a program that loads its code later)."""
    entries = []
    try:
        with open(path, "rb") as f:
            elf = ELFFile(f)
            for name in SECTIONS:
                sec = elf.get_section_by_name(name)
                if sec is not None:
                    entries += read_bundles(sec.data())
    except (OSError, ELFError, CassError):  # not an ELF program, or a damaged bundle: the
        return []                           # runtime meets that when it loads the code
    found = []
    for e in entries:
        if "amdgcn" in e.id and e.target not in found:
            found.append(e.target)
    return found


def device_arch_for(path: str) -> str:
    """The emulated device's processor for the program at `path`."""
    processors = program_processors(path)
    if targets.EMULATED_DEVICE in processors:
        return targets.EMULATED_DEVICE
    runnable = [p for p in processors if p in targets.TARGETS and targets.TARGETS[p].emulated]
    return runnable[0] if runnable else targets.EMULATED_DEVICE


def device_arch() -> str:
    """The processor cass-run chose (the default one when the runtime was started without it)."""
    chosen = os.environ.get(DEVICE_ARCH_ENV) or targets.EMULATED_DEVICE
    found = targets.TARGETS.get(chosen)
    if found is None or not found.emulated:
        raise CassError(f"{DEVICE_ARCH_ENV}={chosen}: not a processor the emulator runs")
    return chosen
