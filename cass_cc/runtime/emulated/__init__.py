"""The emulated HIP runtime's Python half: every HIP function the C shim (emuhip) forwards, built
on cass_cc.emu. Device pointers are host addresses of buffers that cass_cc.emu.Memory owns, so
copies are memmove; every stream runs in order, synchronously, on the emulator."""
