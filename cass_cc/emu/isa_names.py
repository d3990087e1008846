"""Other RDNA generations' spellings of the gfx11 instructions the emulator implements.

The emulator's tables name instructions as llvm-objdump prints them for gfx11. LLVM prints some
of the same operations under other names for gfx12 (and gfx10.3): the decoder maps those names to
the gfx11 ones, so one implementation serves every generation whose semantics match. Each pair is
checked against llvm-mc-22 (tests/emu/test_isa_names.py): the gfx11 spelling, assembled for the
other processor, is printed under the other name with the same operands."""

from __future__ import annotations

import zlib

RENAMED: dict[str, dict[str, str]] = {
    "gfx12": {
        "v_mad_co_u64_u32": "v_mad_u64_u32",
        "v_mad_co_i64_i32": "v_mad_i64_i32",
        "s_add_co_u32": "s_add_u32",
        "s_add_co_i32": "s_add_i32",
        "s_add_co_ci_u32": "s_addc_u32",
        "s_sub_co_u32": "s_sub_u32",
        "s_sub_co_i32": "s_sub_i32",
        "s_sub_co_ci_u32": "s_subb_u32",
        "s_addk_co_i32": "s_addk_i32",
        # gfx12 splits the workgroup barrier into s_barrier_signal -1 and s_barrier_wait -1 (the
        # workgroup's own barrier). A wave's arrival is taken at the wait: what it does between
        # the two cannot be ordered against the other waves by the barrier anyway.
        "s_barrier_wait": "s_barrier",
    },
}

# Waits on gfx12's split counters (s_wait_loadcnt, s_wait_kmcnt, s_wait_loadcnt_dscnt, ...) and
# its ALU dependency wait: no effect in an emulator that completes every access when it is made.
NO_OP_PATTERN = (r"s_wait_(?:load|store|ds|km|sample|bvh|exp)cnt\w*|s_wait_alu|s_barrier_signal|"
                 r"global_inv|global_wb")  # cache invalidate/write-back: the emulator has no caches


# part of the decode cache's key: cached decodings carry the names mapped when they were made
NAMES_VERSION = f"{zlib.crc32(repr(sorted((k, sorted(v.items())) for k, v in RENAMED.items())).encode()):08x}"


def gfx11_mnemonic(mnemonic: str, isa: str) -> str:
    """The gfx11 name of `mnemonic` as LLVM prints it for the ISA generation `isa`."""
    return RENAMED.get(isa, {}).get(mnemonic, mnemonic)
