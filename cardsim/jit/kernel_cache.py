"""Keep numba's on-disk kernel cache in step with the source code.

numba's ``cache=True`` checks only the timestamp of the file that defines a
kernel, not of the kernels it calls in other modules: after editing a bot in
``bots/`` the game kernel in ``cardsim/games/`` would silently keep the old
bot compiled in. So every version of the kernels' sources gets its own cache
folder under ``$NUMBA_CACHE_DIR`` (default ``~/.cache/cardsim``), named by a
hash of the files a kernel can depend on: every module of ``cardsim`` and
``bots`` that defines kernels, and every module those import from,
transitively (a kernel freezes the constants it reads from any of them), and the
data tables a module loads into such constants (``DATA``: ``bots/*.npy``). The import graph is
read from the sources, so editing the CLI, the runner, a plot or a Python
driver recompiles nothing. The few most recent folders are kept.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

import numba

from cardsim.jit.cpu import use_pdep

KEEP_VERSIONS = 4
PACKAGE_ROOT = Path(__file__).resolve().parent.parent  # cardsim/


def _sources() -> dict[str, Path]:
    """Module name -> file, for every Python source of cardsim and of the built-in bots."""
    files = sorted(PACKAGE_ROOT.rglob("*.py")) + sorted((PACKAGE_ROOT.parent / "bots").glob("*.py"))
    modules = {}
    for path in files:
        parts = path.relative_to(PACKAGE_ROOT.parent).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def data_files() -> list[Path]:
    """The data tables modules load at import into constants that kernels freeze (e.g. the Wizard heuristic's
    calibrated win chances, ``bots/wizard_bid_table.npy``): part of every digest, like a source."""
    return sorted((PACKAGE_ROOT.parent / "bots").glob("*.npy")) + sorted(PACKAGE_ROOT.rglob("*.npy"))


def _digest(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.relative_to(PACKAGE_ROOT.parent).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def source_digest() -> str:
    """Hash of every Python source file of cardsim and of the built-in bots, and of their data tables (the code
    version of results)."""
    return _digest(sorted(_sources().values()) + data_files())


_IMPORT = re.compile(r"^[ \t]*(?:from[ \t]+([\w.]+)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)|import[ \t]+([^\n]+))", re.M)
_KERNEL = re.compile(r"@(?:numba\.)?n?jit\b|\b(?:njit|vectorize|guvectorize)\(")


def kernel_sources() -> list[Path]:
    """The files compiled kernels can depend on: modules that define kernels, and the modules they import from,
    transitively (a kernel reads only its own module's globals, which its imports bring; function-local imports count
    too), read from the import lines."""
    modules = _sources()
    imports, kernels = {}, []
    for name, path in modules.items():
        text = path.read_text()
        found = set()
        for module, names, plain in _IMPORT.findall(text):
            if module:
                found |= {module} | {f"{module}.{n.split()[0]}" for n in re.split(r"[(),\s]*,[(),\s]*|[()]", names)
                                     if n.strip()}  # fmt: skip
            else:
                found |= {item.split()[0] for item in plain.split(",") if item.strip()}
        imports[name] = found & set(modules)
        if _KERNEL.search(text):
            kernels.append(name)
    needed: set[str] = set()
    while kernels:
        name = kernels.pop()
        if name not in needed:
            needed.add(name)
            kernels += imports[name] - needed
    return sorted(modules[name] for name in needed)


def configure() -> Path:
    """Point numba's cache at this source version's folder; call before any kernel is defined."""
    base = Path(os.environ.get("NUMBA_CACHE_DIR") or Path.home() / ".cache" / "cardsim")
    path = "pdep" if use_pdep() else "portable"  # cardsim.jit.cpu: compiled into every kernel that deals
    folder = base / f"kernels-{_digest(kernel_sources() + data_files())}-{path}"
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
