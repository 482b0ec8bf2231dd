"""Execute every notebook in notebooks/ on small synthetic datasets.

The kernel is this interpreter (``sys.executable``). ``pip install -e .[dev]`` installs the
"python3" kernelspec into the environment (ipykernel ships it); if it is missing anyway, the
test writes a kernelspec for ``sys.executable`` into tmp_path and points JUPYTER_PATH at it,
instead of running ``python -m ipykernel install --sys-prefix`` (which would change the venv).
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from tests.helpers.paths import ROOT
from tests.helpers.synthetic_datasets import make_dataset

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _ensure_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if "python3" in KernelSpecManager().find_kernel_specs():
        return
    spec = tmp_path / "jupyter" / "kernels" / "python3"
    spec.mkdir(parents=True)
    argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    (spec / "kernel.json").write_text(
        json.dumps({"argv": argv, "display_name": "Python 3", "language": "python"})
    )
    monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))


@pytest.fixture
def datasets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    base = make_dataset(tmp_path / "base", 300, 4, seed=11)
    other = make_dataset(tmp_path / "prep", 300, 4, seed=11, variants="preparations", effect={"seat:0": 3.0})
    monkeypatch.setenv("TOKAIDO_DATASET", str(base))
    monkeypatch.setenv("TOKAIDO_DATASET_OTHER", str(other))
    monkeypatch.setenv("TOKAIDO_PLOTS", str(tmp_path / "plots"))
    # the kernel imports `analysis` from this checkout, and writes its state into tmp_path only
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))
    _ensure_kernel(tmp_path, monkeypatch)
    return tmp_path


def test_there_are_notebooks() -> None:
    assert {p.name for p in NOTEBOOKS} >= {"balance_overview.ipynb", "variants_and_expansions.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_outputs_are_stripped(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: strip the outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_notebook_runs(path: Path, datasets: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(datasets)}}
    )
    client.execute()  # raises CellExecutionError with the traceback if a cell fails
    images = [
        o for c in nb.cells if c.cell_type == "code" for o in c.outputs if "image/png" in o.get("data", {})
    ]
    assert images, f"{path.name} displayed no plot"
    assert list((datasets / "plots").glob("*.png"))


def _run(path: Path, cwd: Path) -> nbformat.NotebookNode:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}
    ).execute()
    return nb


def _text(nb: nbformat.NotebookNode) -> str:
    return "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)


def test_variants_notebook_says_how_to_make_its_input(
    datasets: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOKAIDO_DATASET", str(datasets / "no-such-study"))
    with pytest.raises(CellExecutionError) as exc:
        _run(ROOT / "notebooks" / "variants_and_expansions.ipynb", datasets)
    msg = str(exc.value)
    assert "SystemExit" in msg and "missing" in msg and "make run" in msg


def test_balance_notebook_names_a_study(datasets: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    study = datasets / "study"
    for v in ("none", "gastronomy"):
        make_dataset(study, 100, 4, seed=5, variants=v, hive=True)
    cells = [
        {"path": f"n_players=4/variants={v}", "games": 100, "status": "complete"}
        for v in ("none", "gastronomy")
    ]
    (study / "manifest.json").write_text(
        json.dumps(
            {
                "kind": "study",
                "seed": 5,
                "status": "complete",
                "cells": cells,
                "study": {"name": "tiny", "players": [4], "variants": ["none", "gastronomy"]},
            }
        )
    )
    monkeypatch.setenv("TOKAIDO_DATASET", str(study))
    text = _text(_run(ROOT / "notebooks" / "balance_overview.ipynb", datasets))
    assert "config: None" not in text
    assert "study 'tiny': players 4; variants none, gastronomy · bots greedy · 200 games" in text
