"""Reading .hip_fatbin sections: several bundles one after the other (one per translation unit),
host entries left out, and clear errors for files that are not AMD programs."""

from __future__ import annotations

import sys

import pytest

from cass_cc.driver import hip_fatbin
from cass_cc.errors import CassError
from cass_cc.rdna3.bundle import HOST_ID, device_id, write_bundle


def test_every_bundle_of_a_section_is_read():
    first = write_bundle([(HOST_ID, b""), (device_id("gfx1100"), b"\x7fELF-one")])
    second = write_bundle([(HOST_ID, b""), (device_id("gfx1100"), b"\x7fELF-two")])
    section = first + bytes(-len(first) % 4096) + second
    entries = hip_fatbin.read_bundles(section)
    assert [(e.id, e.data) for e in entries] == [
        (HOST_ID, b""), (device_id("gfx1100"), b"\x7fELF-one"),
        (HOST_ID, b""), (device_id("gfx1100"), b"\x7fELF-two")]
    assert entries[1].target == "gfx1100"


def test_a_truncated_bundle_is_an_error():
    bundle = write_bundle([(device_id("gfx1100"), b"x" * 100)])
    with pytest.raises(CassError, match="runs past the end"):
        hip_fatbin.read_bundles(bundle[:-10])


def test_files_that_are_not_amd_programs(tmp_path):
    (tmp_path / "text").write_text("hello")
    with pytest.raises(CassError, match="is not an ELF file"):
        hip_fatbin.code_objects(str(tmp_path / "text"))
    with pytest.raises(CassError, match="cannot read"):
        hip_fatbin.code_objects(str(tmp_path / "missing"))
    # An x86-64 ELF without AMD code: this Python interpreter.
    with pytest.raises(CassError, match="has no .hip_fatbin section"):
        hip_fatbin.code_objects(sys.executable)
