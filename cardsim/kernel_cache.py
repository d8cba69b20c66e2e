"""Keep numba's on-disk kernel cache in step with the source code.

numba's ``cache=True`` checks only the timestamp of the file that defines a
kernel, not of the kernels it calls in other modules: after editing a bot in
``bots/`` the game kernel in ``cardsim/games/`` would silently keep the old
bot compiled in. So every version of the source gets its own cache folder,
named by a hash of all ``cardsim`` and ``bots`` sources, under
``$NUMBA_CACHE_DIR`` (default ``~/.cache/cardsim``). The few most recent
folders are kept; older ones are removed.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import numba

KEEP_VERSIONS = 4
PACKAGE_ROOT = Path(__file__).resolve().parent


def source_digest() -> str:
    """Hash of every Python source file of cardsim and of the built-in bots."""
    files = sorted(PACKAGE_ROOT.rglob("*.py")) + sorted((PACKAGE_ROOT.parent / "bots").glob("*.py"))
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.relative_to(PACKAGE_ROOT.parent).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def configure() -> Path:
    """Point numba's cache at this source version's folder; call before any kernel is defined."""
    base = Path(os.environ.get("NUMBA_CACHE_DIR") or Path.home() / ".cache" / "cardsim")
    folder = base / f"kernels-{source_digest()}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)
        versions = sorted(base.glob("kernels-*"), key=lambda p: p.stat().st_mtime, reverse=True)
        for old in versions[KEEP_VERSIONS:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:
        return folder  # read-only home: numba falls back to compiling in memory
    numba.config.CACHE_DIR = str(folder)
    return folder
