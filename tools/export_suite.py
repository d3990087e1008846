#!/usr/bin/env python3
"""Export what a third-party suite's manifest uses from a fetched mirror into .thirdparty/<suite>.

    python3 tools/export_suite.py tests/suites/rodinia.toml /work/.mirror/yuhc+gpu-rodinia/repo

Only the paths the manifest names (each program's dir and files, the suite's files) are taken, at
the manifest's commit, so the tree stays small enough to travel to the H200 for the reference run.
A path the commit lacks is an error naming it."""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cass_cc.bench import suite_manifest  # noqa: E402


def manifest_paths(suite: suite_manifest.Suite) -> list[str]:
    """Every path the suite's programs need, parents before the paths inside them dropped."""
    wanted = sorted({p.dir for p in suite.programs} | {f for p in suite.programs for f in p.files})
    kept: list[str] = []
    for path in wanted:
        if not any(path == k or path.startswith(k.rstrip("/") + "/") for k in kept):
            kept.append(path)
    return kept


def export(suite: suite_manifest.Suite, mirror: str, into: Path) -> None:
    into.mkdir(parents=True, exist_ok=True)
    for path in manifest_paths(suite):
        archive = subprocess.run(["git", f"--git-dir={mirror}", "archive", suite.commit, "--", path],
                                 capture_output=True)
        if archive.returncode != 0:
            raise SystemExit(f"export_suite: {suite.name}: {path}: "
                             f"{archive.stderr.decode(errors='replace').strip()}")
        subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("manifest", help="tests/suites/<suite>.toml")
    parser.add_argument("mirror", help="the fetched repository's git dir (/work/.mirror/owner+name/repo)")
    parser.add_argument("--into", help="default: .thirdparty/<suite> in the current directory")
    args = parser.parse_args()
    suite = suite_manifest.load(args.manifest)
    export(suite, args.mirror, Path(args.into or f".thirdparty/{suite.name}"))


if __name__ == "__main__":
    main()
