"""Both notebooks take any study: its condition columns shown, every configuration side by side (never
pooled), executed on a synthetic study laid out as ``make run`` writes one (tests/test_notebooks.py runs
them on single runs)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

from tests.helpers.study_data import make_study

ROOT = Path(__file__).resolve().parents[3]
CELLS = [
    {"n_players": 3},
    {"n_players": 4},
    {"n_players": 3, "travelers": "draft"},
    {"n_players": 4, "travelers": "draft"},
    {"n_players": 3, "variants": "preparations", "effect": {"seat:0": 4.0}},
    {"n_players": 4, "variants": "gastronomy"},
    {"n_players": 4, "expansions": "crossroads", "deal_seed": 9, "effect": {"kinko": 5.0}},
    {"n_players": 4, "expansions": "crossroads", "pool": "base", "deal_seed": 10},
]


@pytest.fixture
def study(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_study(tmp_path / "study", CELLS)
    monkeypatch.setenv("TOKAIDO_DATASET", str(root))
    monkeypatch.delenv("TOKAIDO_DATASET_OTHER", raising=False)
    monkeypatch.setenv("TOKAIDO_PLOTS", str(tmp_path / "plots"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))
    if "python3" not in KernelSpecManager().find_kernel_specs():
        spec = tmp_path / "jupyter" / "kernels" / "python3"
        spec.mkdir(parents=True)
        argv = [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"]
        (spec / "kernel.json").write_text(
            json.dumps({"argv": argv, "display_name": "Python 3", "language": "python"})
        )
        monkeypatch.setenv("JUPYTER_PATH", str(tmp_path / "jupyter"))
    return tmp_path


def _run(name: str, cwd: Path) -> str:
    nb = nbformat.read(ROOT / "notebooks" / f"{name}.ipynb", as_version=4)
    NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}
    ).execute()
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            out.append(o.get("text", ""))
            data = o.get("data", {})
            out.append(data.get("text/markdown", "") + data.get("text/plain", "") + data.get("text/html", ""))
    return "\n".join(out)


def test_the_overview_shows_each_configuration_of_a_study(study: Path) -> None:
    text = _run("balance_overview", study)
    assert "conditions that vary: expansions, pool, variants, travelers" in text
    assert "3p dealt at random" in text and "4p drafted" in text  # side by side, one column each
    assert "Crossroads, base Travelers only" in text and "base game, Preparations" in text
    assert (study / "plots" / "travelers.png").is_file() and (study / "plots" / "seats.png").is_file()


def test_the_effects_notebook_reads_variants_and_expansions_from_one_study(study: Path) -> None:
    text = _run("variants_and_expansions", study)
    assert "**3 players**\n\n|  | Preparations |" in text and "**4 players**\n\n|  | Gastronomy |" in text
    assert "|  | Crossroads | Crossroads, base Travelers only |" in text
    assert (study / "plots" / "variant_effects.png").is_file() and (
        study / "plots" / "expansion_effects.png"
    ).is_file()
    assert "set TOKAIDO_DATASET_OTHER to compare two datasets" in text
