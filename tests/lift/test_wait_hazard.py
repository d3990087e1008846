"""Which kernels run one CUDA warp per wave64 (lift/warp_model.wait_hazard): loops in which a warp
waits for memory another thread changes, on SASS as ptxas writes it (atomic_contention's lock,
cuda::barrier's phase wait), against loops that only look alike (a compare-and-swap retry, an
atomic whose result nothing tests, a load whose address moves)."""

from __future__ import annotations

import pytest

from cass_cc.passes.lift import warp_model
from cass_cc.sass.parser import parse_sass

WAVE64, WAVE32 = warp_model.for_target("gfx942"), warp_model.for_target("gfx1100")


def _hazard(sass: str, model=WAVE64):
    instructions = sorted(parse_sass(sass).instructions, key=lambda i: i.address)
    return warp_model.wait_hazard(model, instructions)


# atomicCAS(&lock, 0, 1) until it returns 0, as ptxas writes `while (atomicCAS(l, 0, 1) != 0);`
SPIN_LOCK = """
        /*0000*/                   IMAD.MOV.U32 R3, RZ, RZ, 0x1 ;
.L_x_1:
        /*0010*/                   IMAD.MOV.U32 R2, RZ, RZ, RZ ;
        /*0020*/                   YIELD ;
        /*0030*/                   ATOMG.E.CAS.STRONG.GPU PT, R2, [R4+-0x1c], R2, R3 ;
        /*0040*/                   ISETP.NE.AND P0, PT, R2, RZ, PT ;
        /*0050*/               @P0 BRA `(.L_x_1) ;
        /*0060*/                   EXIT ;
"""

# the same lock where ptxas moves the compare value with HFMA2.MMA (-0 * 0 plus the f16 pair 0, 0:
# a constant, issued on the FMA pipe) and zeroes a pair with CS2R
SPIN_LOCK_HFMA2 = """
        /*0000*/                   IMAD.MOV.U32 R5, RZ, RZ, 0x1 ;
.L_x_1:
        /*0010*/                   HFMA2.MMA R4, -RZ, RZ, 0, 0 ;
        /*0020*/                   YIELD ;
        /*0030*/                   ATOMG.E.CAS.STRONG.GPU PT, R0, [R2], R4, R5 ;
        /*0040*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;
        /*0050*/               @P0 BRA `(.L_x_1) ;
        /*0060*/                   EXIT ;
"""
SPIN_LOCK_CS2R = """
.L_x_1:
        /*0000*/                   CS2R R4, SRZ ;
        /*0010*/                   ATOMG.E.EXCH.STRONG.GPU PT, R0, [R2.64], R4 ;
        /*0020*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;
        /*0030*/               @P0 BRA `(.L_x_1) ;
        /*0040*/                   EXIT ;
"""

# an HFMA2 that computes (its product is not zero): the data varies
HFMA2_VARYING = """
.L_x_1:
        /*0000*/                   HFMA2 R4, R6, R6, 1, 1 ;
        /*0010*/                   ATOMG.E.EXCH.STRONG.GPU PT, R0, [R2.64], R4 ;
        /*0020*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;
        /*0030*/               @P0 BRA `(.L_x_1) ;
        /*0040*/                   EXIT ;
"""

# a float atomicAdd as a CAS loop: the compare value is the value the last CAS returned
CAS_RETRY = """
.L_x_1:
        /*0000*/                   FADD R9, R7, R8 ;
        /*0010*/                   YIELD ;
        /*0020*/                   ATOMG.E.CAS.STRONG.GPU PT, R9, [R4+0xc], R8, R9 ;
        /*0030*/                   ISETP.NE.AND P0, PT, R9, R8, PT ;
        /*0040*/                   IMAD.MOV.U32 R8, RZ, RZ, R9 ;
        /*0050*/               @P0 BRA `(.L_x_1) ;
        /*0060*/                   EXIT ;
"""

# cuda::barrier's wait: the phase word read with LDS, its bit tested by LOP3 into the predicate
PHASE_WAIT = """
.L_x_1:
        /*0000*/                   NANOSLEEP 0x20 ;
        /*0010*/                   LDS R5, [0x204] ;
        /*0020*/                   LOP3.LUT P0, RZ, R5, 0x80000000, R12, 0x48, !PT ;
        /*0030*/              @!P0 BRA `(.L_x_1) ;
        /*0040*/                   EXIT ;
"""

# atomicAdd in a counted loop: its result decides nothing
COUNTED_ATOMICS = """
.L_x_1:
        /*0000*/                   ATOMG.E.ADD.STRONG.GPU PT, RZ, [R4.64], R3 ;
        /*0010*/                   IADD3 R6, R6, -0x1, RZ ;
        /*0020*/                   ISETP.NE.AND P0, PT, R6, RZ, PT ;
        /*0030*/               @P0 BRA `(.L_x_1) ;
        /*0040*/                   EXIT ;
"""

# volatile loads over an array: the address moves each time round
WALK = """
.L_x_1:
        /*0000*/                   LDG.E.STRONG.SYS R2, [R8.64] ;
        /*0010*/                   IADD3 R8, P1, R8, 0x4, RZ ;
        /*0020*/                   IMAD.X R9, RZ, RZ, R9, P1 ;
        /*0030*/                   ISETP.NE.AND P0, PT, R2, RZ, PT ;
        /*0040*/               @P0 BRA `(.L_x_1) ;
        /*0050*/                   EXIT ;
"""


@pytest.mark.parametrize("sass,opcode", [(SPIN_LOCK, "ATOMG"), (SPIN_LOCK_HFMA2, "ATOMG"), (SPIN_LOCK_CS2R, "ATOMG"),
                                         (PHASE_WAIT, "LDS")])
def test_spin_loops_run_one_warp_per_wave(sass, opcode):
    poll, why = _hazard(sass)
    assert poll.opcode == opcode and "spin loop" in why


@pytest.mark.parametrize("sass", [CAS_RETRY, COUNTED_ATOMICS, WALK, HFMA2_VARYING])
def test_loops_whose_warps_never_wait_keep_two_warps_a_wave(sass):
    assert _hazard(sass) is None


def test_wave32_has_no_shared_waves():
    assert _hazard(SPIN_LOCK, WAVE32) is None


def test_producer_arrive_runs_one_warp_per_wave():
    poll, why = _hazard("""
        /*0000*/                   BAR.ARV 0x2, 0x80 ;
        /*0010*/                   EXIT ;
""")
    assert poll.opcode == "BAR" and "BAR.ARV" in why


# `if (threadIdx.x == 0) { lock; ...; unlock; }` after a block reduction, as ptxas writes it: P0 is
# first the bounds test of the load, then threadIdx.x != 0, which the EXIT before the lock uses
LOCK_BY_THREAD_ZERO = """
        /*0000*/                   S2R R2, SR_CTAID.X ;
        /*0010*/                   S2R R7, SR_TID.X ;
        /*0020*/                   IMAD R2, R2, c[0x0][0x0], R7 ;
        /*0030*/                   ISETP.GE.AND P0, PT, R2, c[0x0][0x178], PT ;
        /*0040*/              @!P0 LDG.E R0, [R2.64] ;
        /*0050*/                   ISETP.NE.AND P0, PT, R7, RZ, PT ;
        /*0060*/                   ISETP.NE.AND P1, PT, RZ, UR4, PT ;
        /*0070*/                   STS [R7.X4], R0 ;
        /*0080*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*0090*/              @!P1 BRA `(.L_x_3) ;
.L_x_4:
        /*00a0*/                   ISETP.GE.U32.AND P1, PT, R7, R3, PT ;
        /*00b0*/                   SHF.R.U32.HI R3, RZ, 0x1, R3 ;
        /*00c0*/                   BAR.SYNC.DEFER_BLOCKING 0x0 ;
        /*00d0*/                   ISETP.NE.AND P1, PT, R3, RZ, PT ;
        /*00e0*/               @P1 BRA `(.L_x_4) ;
.L_x_3:
        /*00f0*/               @P0 EXIT ;
        /*0100*/                   HFMA2.MMA R5, -RZ, RZ, 0, 5.9604644775390625e-08 ;
.L_x_6:
        /*0110*/                   IMAD.MOV.U32 R4, RZ, RZ, RZ ;
        /*0120*/                   ATOMG.E.CAS.STRONG.GPU PT, R0, [R2], R4, R5 ;
        /*0130*/                   ISETP.NE.AND P0, PT, R0, RZ, PT ;
        /*0140*/               @P0 BRA `(.L_x_6) ;
        /*0150*/                   EXIT ;
"""


def _packs(sass: str) -> bool:
    instructions = sorted(parse_sass(sass).instructions, key=lambda i: i.address)
    return warp_model.packs_one_dimensional(instructions, warp_model.waits(WAVE64, instructions))


def test_a_lock_only_thread_zero_takes_lets_a_one_dimensional_block_pack():
    """One thread of a 1-D block spins: the block may run two warps to a wave, so 1024 threads fit."""
    assert _packs(LOCK_BY_THREAD_ZERO)


@pytest.mark.parametrize("sass", [
    SPIN_LOCK,                                                        # every thread may spin
    LOCK_BY_THREAD_ZERO.replace("ISETP.NE.AND P0, PT, R7, RZ, PT", "ISETP.NE.AND P0, PT, R7, 0x20, PT"),
    LOCK_BY_THREAD_ZERO.replace("@P0 EXIT", "@P1 EXIT"),              # another predicate guards it
    LOCK_BY_THREAD_ZERO.replace("/*0060*/                   ISETP.NE.AND P1", "/*0060*/                   ISETP.NE.AND P0"),
    LOCK_BY_THREAD_ZERO.replace("S2R R7, SR_TID.X", "S2R R7, SR_TID.Y"),
    LOCK_BY_THREAD_ZERO.replace("STS [R7.X4], R0", "STG.E.STRONG.SYS [R2.64], R0"),   # may set what it polls
    LOCK_BY_THREAD_ZERO.replace("        /*0150*/                   EXIT ;",
                                "        /*0150*/                   BAR.ARV 0x1, 0x40 ;\n"
                                "        /*0160*/                   EXIT ;"),  # a wait of another kind
], ids=["every-thread", "thread-32", "other-guard", "test-overwritten", "tid-y", "others-store", "bar-arv"])
def test_waits_other_threads_may_reach_keep_one_warp_per_wave(sass):
    assert not _packs(sass)
