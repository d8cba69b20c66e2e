"""Output paths checked before any work starts (RULES.md D1): a run that could not write its result, or would
overwrite a finished one, is refused with one message naming the path and what is allowed, not after an hour of
simulation with a traceback.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from cardsim.errors import CardsimError


def _check_writable(folder: Path, what: str) -> None:
    """Create and remove a probe file in ``folder``: the only honest test (root passes ``os.access`` on /proc)."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".cardsim-probe-"):
            pass
    except OSError as error:
        raise CardsimError(f"cannot write {what}: folder {folder} is not writable ({error.strerror})") from None


def check_output_file(path: str | os.PathLike, force: bool = False) -> Path:
    """The Parquet file ``path`` that a run will write: not a folder, in a folder that exists and is writable,
    and not an existing file unless ``force`` (a finished result is never overwritten silently)."""
    path = Path(path)
    if path.is_dir():
        raise CardsimError(f"cannot write {path}: it is a folder; give a file name, e.g. {path / 'rows.parquet'}")
    if not path.parent.is_dir():
        existing = path.parent
        while not existing.exists():
            existing = existing.parent
        if not existing.is_dir():
            raise CardsimError(f"cannot write {path}: {existing} is a file, not a folder; give a path in a folder")
        raise CardsimError(f"cannot write {path}: folder {path.parent} does not exist")
    if path.exists() and not force:
        raise CardsimError(f"{path} already exists; choose another --out file, or add --force (force=True) to "
                           "overwrite it")  # fmt: skip
    _check_writable(path.parent, str(path))
    return path


def check_output_folder(path: str | os.PathLike) -> Path:
    """The results folder ``path``: an existing writable folder, or one that can be made in a writable folder."""
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise CardsimError(f"cannot use {path} as a results folder: it is a file; choose a folder for --out")
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise CardsimError(f"cannot make the results folder {path}: {existing} is a file")
    _check_writable(existing, f"the results folder {path}")
    return path
