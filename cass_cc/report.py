"""The translation report: one JSON per compile (DESIGN.md, 'Translation report')."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from .fsutil import atomic_write_text


@dataclass
class Report:
    source: str
    route: str
    offload_arch: str
    kernels: list[dict] = field(default_factory=list)
    diagnostics: list[str] = field(default_factory=list)
    nvidia_targets: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {
            "source": self.source,
            "route": self.route,
            "offload_arch": self.offload_arch,
            "nvidia_targets": self.nvidia_targets,
            "kernels": self.kernels,
            "diagnostics": self.diagnostics,
        }

    def write(self, path: str | None) -> list[str]:
        """Write to `path` (if given) and into $CASS_REPORT_DIR (if set); returns the paths."""
        text = json.dumps(self.as_dict(), indent=2) + "\n"
        written = []
        targets = [path] if path else []
        report_dir = os.environ.get("CASS_REPORT_DIR")
        if report_dir:
            Path(report_dir).mkdir(parents=True, exist_ok=True)
            stem = Path(self.source).name or "compile"
            targets.append(os.path.join(report_dir, f"{stem}.{os.getpid()}.cass-report.json"))
        for t in targets:
            atomic_write_text(t, text)
            written.append(t)
        return written
