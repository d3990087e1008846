"""What the lifter's analyses know of an opcode besides its handler, written once: which opcodes
end a basic block, branch, call, return, end the thread, mark a reconvergence point, touch the
block's barrier state, store through operand 0, or copy a register. cfg.py, warp.py,
subroutines.py, printf.py and device_runtime.py read these sets; none keeps a list of its own.
"""

from __future__ import annotations

ENDS_BLOCK = "ends a basic block"
BRANCH = "branches to a label"
INDIRECT = "branches to a register's address"
CALLS = "calls"
RETURNS = "returns to a call site"
EXITS = "ends the thread"
CONVERGES = "marks where diverged lanes meet again"
BARRIER = "uses the block's barrier state"
STORES = "operand 0 is an address, no destination"
MOVES = "copies its last operand into operand 0"

PROPERTIES: dict[str, frozenset[str]] = {op: frozenset(props) for op, props in {
    "BRA": {ENDS_BLOCK, BRANCH},
    "JMP": {ENDS_BLOCK, BRANCH},
    "BRX": {ENDS_BLOCK, INDIRECT},
    "JMX": {ENDS_BLOCK, INDIRECT},
    "CALL": {ENDS_BLOCK, CALLS},
    "RET": {ENDS_BLOCK, RETURNS},
    "EXIT": {ENDS_BLOCK, EXITS},
    "KILL": {ENDS_BLOCK, EXITS},
    "BSSY": {CONVERGES},
    "BSYNC": {CONVERGES},
    "WARPSYNC": {CONVERGES},
    "BAR": {BARRIER},
    "B2R": {BARRIER},
    "UCGABAR_ARV": {BARRIER},
    "UCGABAR_WAIT": {BARRIER},
    "ST": {STORES},
    "STG": {STORES},
    "STS": {STORES},
    "STL": {STORES},
    "RED": {STORES},
    "ATOM": {STORES},
    "ATOMG": {STORES},
    "ATOMS": {STORES},
    "MOV": {MOVES},
    "UMOV": {MOVES},
    "IMAD": {MOVES},        # IMAD.MOV d, RZ, RZ, s (and IMAD d, RZ, RZ, s): the callers check the RZs
    "R2UR": {MOVES},
}.items()}


def with_property(prop: str) -> frozenset[str]:
    return frozenset(op for op, props in PROPERTIES.items() if prop in props)


TERMINATORS = with_property(ENDS_BLOCK)
BARRIERS = with_property(BARRIER)
STORE_OPCODES = with_property(STORES)
MOVE_OPCODES = with_property(MOVES)
# Opcodes acting on the kernel as a whole (its end, the barrier state its entry block zeroes):
# a subroutine holding one cannot be lifted as a function of its own.
KERNEL_ONLY = with_property(EXITS) | BARRIERS
# Where the straight-line code of a warp region (warp.py) ends: any end of a block, any
# reconvergence point, any barrier.
REGION_ENDS = TERMINATORS | with_property(CONVERGES) | BARRIERS

WARP_BRANCH_MODIFIERS = frozenset(("DIV", "CONV"))


def is_warp_branch(ins) -> bool:
    """BRA.DIV / BRA.CONV: taken on the warp's convergence (some or all lanes of a mask active),
    not on a predicate."""
    return ins.opcode == "BRA" and not WARP_BRANCH_MODIFIERS.isdisjoint(ins.modifiers)


def is_immediate_move(ins) -> bool:
    """MOV or IMAD.MOV: the forms that move an immediate into a register."""
    return ins.opcode == "MOV" or (ins.opcode == "IMAD" and "MOV" in ins.modifiers)
