"""The global wave sync (GWS) unit's ds_gws_barrier, HIP's grid barrier
(ROCm 5.2's `this_grid().sync()`: one wave per workgroup calls ds_gws_barrier with the number of
workgroups minus one).

A barrier is a resource, M0[21:16] + the instruction's offset. A wave arriving at ds_gws_barrier
waits (status AT_GWS) until as many waves as its data0 VGPR (first active lane) plus one have
arrived; then they all go on. The waiting waves live in the batch's `st.gws` (resource -> waves),
so a barrier only meets waves of one batch: cooperative launches run all their workgroups in one
(cass_cc.emu.launch), and a barrier that can never fill is reported as a deadlock there.
"""

from __future__ import annotations

import numpy as np

from .decode import Instr
from .state import EXEC, M0, RUNNING

AT_GWS = 3          # wave status: waiting at a GWS barrier (state.py: RUNNING 0, AT_BARRIER 1, DONE 2)


def build_gws(instr: Instr):
    """Executor of a GWS instruction, or None when `instr` is not one."""
    m = instr.mnemonic
    if m != "ds_gws_barrier":
        return None
    data = instr.operands[0].reg
    offset = int(instr.mods.get("offset", 0))
    size = instr.size

    def resource(st, wave: int) -> int:
        return ((int(st.S[wave, M0]) >> 16) & 0x3F) + offset

    def first_lane_value(st, wave: int) -> int | None:
        # the barrier's count (waves minus one) comes from the first active lane
        active = int(st.mask_bits(np.array([wave]), EXEC)[0])
        return None if active == 0 else int(st.V[wave, data, (active & -active).bit_length() - 1])

    def gws_barrier(st, w):
        for wave in w:
            value = first_lane_value(st, wave)
            if value is None:                       # no lane active: the wave does not take part
                st.pc[wave] += size
                continue
            waiting = st.gws.setdefault(resource(st, wave), [])
            waiting.append(int(wave))
            if len(waiting) > value:
                released = np.array(waiting)
                st.status[released] = RUNNING
                st.pc[released] += size
                waiting.clear()
            else:
                st.status[wave] = AT_GWS
        return True
    return gws_barrier
