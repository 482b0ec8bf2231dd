"""A handful of the rule tests again with Numba switched off (``NUMBA_DISABLE_JIT=1``).

The kernels must mean the same thing as plain Python: the subprocess imports
every kernel as an ordinary function and runs the selected tests on it. It runs
in a temporary directory and writes no cache or bytecode into the repository.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
FILES = (
    "base/test_turns.py",
    "base/test_stations.py",
    "base/test_encounters.py",
    "base/test_inns.py",
    "base/test_travelers.py",
    "base/test_scoring.py",
    "base/test_piles.py",
    "matsuri/test_trigger_and_instant_cards.py",
    "matsuri/test_leg_cards.py",
    "matsuri/test_travelers_ayumu_to_marihito.py",
    "matsuri/test_travelers_mari_to_yashima.py",
)
SELECT = " or ".join(
    [
        "test_rulebook_example",  # souvenir sets, temple ranking, the 4-player Inn
        "test_last_to_arrive_at_inn_leaves_first",
        "test_legal_moves_never_pass_an_inn",
        "test_double_space_later_arrival_moves_first",
        "test_village_draws_three_and_buys_a_subset",
        "test_first_to_complete_a_panorama_takes_its_achievement",
        "test_itamae_pays_a_coin_for_a_meal",
        "test_kinko_meals_cost_one_less",
        "test_yoshiyasu_draws_two_keeps_one",
        "test_sasayakko_cheapest_souvenir_is_free",
        "test_neutral_discards_one_meal_at_random",
        "test_final_tie_break_on_achievements",
        "test_empty_encounter_pile",
        "test_kernels_are_plain_python_without_jit",
        # Matsuri cards: the worked examples, a shared o-Fune, a closure, Gion's pick, Cho-yo
        "test_hina_matsuri_doll_is_worth_five_worked_example",
        "test_tango_carp_starts_a_new_set_worked_example",
        "test_ofune_sea_for_everyone_shared_completion",
        "test_kamiarisai_closes_the_temples_of_the_next_leg_for_everyone",
        "test_gion_matsuri_the_stopper_chooses_its_encounter_and_the_pile_is_reshuffled",
        "test_choyo_meals_one_coin_less_and_two_more_cards",
        "test_marihito_worked_example",
        "test_musubi_takes_from_his_arrival_neighbours",
        "test_kidzuna_extra_meal_before_hers",
    ]
)
JIT_OFF = os.environ.get("NUMBA_DISABLE_JIT", "0") == "1"


@pytest.mark.skipif(not JIT_OFF, reason="runs only in the NUMBA_DISABLE_JIT=1 subprocess")
def test_kernels_are_plain_python_without_jit() -> None:
    """In the subprocess the kernels are ordinary Python functions (no Numba dispatcher)."""
    from kernels.tokaido.core.board import legal_moves_nb
    from kernels.tokaido.game.stations import inn_nb

    assert not hasattr(legal_moves_nb, "py_func") and not hasattr(inn_nb, "py_func")


@pytest.mark.skipif(JIT_OFF, reason="already without JIT")
def test_rule_tests_pass_without_jit(tmp_path: Path) -> None:
    """The selected rule tests pass in pure Python (NUMBA_DISABLE_JIT=1)."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONDONTWRITEBYTECODE": "1"}
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-q",
        "-x",
        "-p",
        "no:cacheprovider",
        "-k",
        SELECT,
        *(str(HERE / f) for f in FILES),
        str(Path(__file__).resolve()),
    ]
    proc = subprocess.run(cmd, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out[-4000:]
    passed = re.search(r"(\d+) passed", proc.stdout)
    assert passed and int(passed.group(1)) >= 20, out[-2000:]
    assert "skipped" not in proc.stdout.splitlines()[-1], out[-2000:]  # the JIT-off check ran
