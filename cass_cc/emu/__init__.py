"""A functional AMDGPU emulator for code objects (v4 and v5) of gfx1100 (RDNA3, wave32), gfx1200/
gfx1201 (RDNA4), gfx1030 (RDNA2) and gfx90a/gfx942 (CDNA2/3, wave64): llvm-objdump's names of each
generation are mapped to gfx11's (isa_names.py); a wave has its kernel's 32 or 64 lanes.

    from cass_cc.emu import Memory, CodeObject, launch, EmuFault
    mem = Memory()                                   # device pointers are real host addresses
    co = CodeObject.load(open("k.hsaco", "rb").read(), mem)
    stats = launch(co, "kernel", grid=(4, 1, 1), block=(64, 1, 1), kernarg=args, memory=mem)

Stages: code_object (the image of what cass_cc.rdna3.code_object reads, relocated, in Memory) -> decode (llvm-objdump-22
text, asm.lark) -> program (an executor per instruction, built on first execution: salu, valu
with dpp and sdwa, lanes, vmem, lds, mfma; ALU arithmetic from cass_cc.emu.alu) -> launch (kernarg and hidden
arguments, dispatch packet, initial registers, the scheduler that runs waves at the same pc
together). Each wave has its MODE register (round and denormal modes, from the kernel descriptor,
changed by s_round_mode, s_denorm_mode and s_setreg), which the float ALU honours. Faults raise
EmuFault with kind "memory", "hang", "budget", "unimplemented", "decode", "deadlock" or "trap".
A launch runs until it ends or can make no more progress (progress.py: CASS_EMU_HANG_INSTRUCTIONS);
CASS_EMU_MAX_INSTRUCTIONS, when set, bounds the wave-instructions of one launch. Allocations
occupy whole 4 KiB pages as on ROCm (memory.py): accesses in that padding are warnings, or faults
with CASS_EMU_STRICT.
"""

from .code_object import CodeObject
from .fault import EmuFault
from .launch import LaunchStats, launch
from .memory import Memory

__all__ = ["Memory", "CodeObject", "launch", "LaunchStats", "EmuFault"]
