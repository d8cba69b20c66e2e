"""The notebooks in notebooks/ run top to bottom, are stored without outputs, and import only the library.

They run in a fresh "python3" kernel: jupyter_client starts it with this interpreter (the venv's), and it inherits
the environment, NUMBA_CACHE_DIR included, so the kernels compiled by the other tests are reused.
"""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parent.parent / "notebooks").glob("*.ipynb"))
ALLOWED_IMPORTS = {"cardsim", "pandas", "numpy", "matplotlib"}
CELL_TIMEOUT = 300  # seconds: a cold numba cache compiles a game's kernels (15-35 s each) inside a cell


def test_the_three_notebooks_are_there():
    names = {path.stem for path in NOTEBOOKS}
    assert {"quickstart", "wizard_bidding", "differenzler_predictions"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_is_stored_clean_and_imports_only_the_library(path):
    notebook = nbformat.read(path, as_version=4)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert code, "a notebook without code"
    assert all(not cell.outputs and cell.execution_count is None for cell in code), "clear the outputs before saving"
    imported = r"^\s*(?:from|import)\s+([\w.]+)"
    modules = {m.split(".")[0] for cell in code for m in re.findall(imported, cell.source, re.M)}
    assert modules <= ALLOWED_IMPORTS, f"imports beyond the library: {modules - ALLOWED_IMPORTS}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_notebook_runs(path):
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=CELL_TIMEOUT, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})  # fmt: skip
    client.execute()  # raises CellExecutionError, with the cell and its traceback, if any cell fails
    assert any(output.get("data", {}).get("image/png") for cell in notebook.cells for output in cell.get("outputs", []))
