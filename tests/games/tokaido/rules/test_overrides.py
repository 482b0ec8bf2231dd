"""Rule overrides: --set and TOML patch files; the manifest records them and they change the games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.errors import UserError
from sim.games.tokaido import dataset
from sim.games.tokaido.cli import options
from sim.games.tokaido.rules.config import GameConfig
from sim.overrides import expand_sets, format_value, load_patch
from tests.helpers.cli import call

PATCH = """\
# a designer's rule change
"farm.coins" = 4

[travelers.kinko]
coins = 6

[meals]
hand_extra = 0

[variants.preparations]
"4" = [0, 0, 1, 1]
"""


def test_load_patch_flattens_to_dotted_keys(tmp_path: Path) -> None:
    p = tmp_path / "patch.toml"
    p.write_text(PATCH)
    assert load_patch(p) == [
        ("farm.coins", 4),
        ("travelers.kinko.coins", 6),
        ("meals.hand_extra", 0),
        ("variants.preparations.4", [0, 0, 1, 1]),
    ]
    items = expand_sets(["temple.max_donation=2", f"@{p}"])
    assert items == [
        "temple.max_donation=2",
        "farm.coins=4",
        "travelers.kinko.coins=6",
        "meals.hand_extra=0",
        "variants.preparations.4=0,0,1,1",
    ]
    assert format_value(True) == "true" and format_value([1, 2]) == "1,2"


def test_a_patch_gives_the_same_rules_as_set(tmp_path: Path) -> None:
    p = tmp_path / "patch.toml"
    p.write_text(PATCH)
    patched = GameConfig(n_players=4, variants=("preparations",), overrides=tuple(load_patch(p)))
    via_set = options.make_config(4, "draft", "greedy", "preparations", "", expand_sets([f"@{p}"]))
    assert patched.rules().fingerprint() == via_set.rules().fingerprint()
    assert (
        patched.rules().fingerprint()
        != GameConfig(n_players=4, variants=("preparations",)).rules().fingerprint()
    )
    r = patched.rules()
    assert r.travelers[r.traveler_index("kinko")].coins == 6
    # typed values (lists too) survive the config string that manifests and baselines record
    assert GameConfig.parse(patched.spec()).rules().fingerprint() == r.fingerprint()


@pytest.mark.parametrize(
    "text, message",
    [
        (None, "does not exist"),
        ("[travelers.kinko\ncoins = 6", "not valid TOML"),
        ("", "holds no rule"),
        ("[meals]\n", "is empty"),
        ("x = [{a = 1}]", "not a table"),
        ("x = 1.5", "not a whole number"),
    ],
)
def test_bad_patch_files(tmp_path: Path, text: str | None, message: str) -> None:
    p = tmp_path / "patch.toml"
    if text is not None:
        p.write_text(text)
    with pytest.raises(UserError, match=message):
        load_patch(p)


def test_a_patch_that_names_no_rule_is_a_user_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "patch.toml"
    p.write_text("[travelers.nobody]\ncoins = 3\n")
    code, _, err = call(["check", "golden", "--set", f"@{p}"], capsys)
    assert code == 2 and "no Traveler named 'nobody'" in err


def test_manifest_records_overrides_and_they_change_the_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, changed = tmp_path / "base", tmp_path / "kinko6"
    common = ["run", "--games", "300", "--seed", "3", "--players", "4", "--travelers", "random", "--quiet"]
    assert call([*common, "--out", str(base)], capsys)[0] == 0
    assert call([*common, "--out", str(changed), "--set", "travelers.kinko.coins=6"], capsys)[0] == 0
    m0 = json.loads((base / "manifest.json").read_text())
    m1 = json.loads((changed / "manifest.json").read_text())
    assert m0["config"]["overrides"] == []
    assert m1["config"]["overrides"] == [["travelers.kinko.coins", "6"]]
    assert "set:travelers.kinko.coins=6" in m1["spec"]
    # the manifest is enough to rebuild the exact rules of the run
    rebuilt = GameConfig.parse(m1["spec"]).rules()
    assert rebuilt.fingerprint() == m1["rules_fingerprint"] != m0["rules_fingerprint"]
    assert rebuilt.travelers[rebuilt.traveler_index("kinko")].coins == 6
    t0, t1 = dataset.read_table(base), dataset.read_table(changed)
    assert t0.num_rows == t1.num_rows == 1200
    assert not t0.equals(t1)

    def kinko_coins(t):  # noqa: ANN001, ANN202
        return {
            c
            for tr, c in zip(t["traveler"].to_pylist(), t["coins_start"].to_pylist(), strict=True)
            if tr == "kinko"
        }

    assert kinko_coins(t0) == {7} and kinko_coins(t1) == {6}


def test_list_overrides_survive_a_baseline(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "prep.json"
    code, text, err = call(
        [
            "check",
            "make-baseline",
            "--out",
            str(out),
            "--players",
            "4",
            "--variants",
            "preparations",
            "--set",
            "variants.preparations.4=0,0,1,1",
            "--games",
            "500",
        ],
        capsys,
    )
    assert code == 0, err
    b = json.loads(out.read_text())
    assert b["config"]["overrides"] == [["variants.preparations.4", [0, 0, 1, 1]]]
    assert GameConfig.parse(b["spec"]).rules().fingerprint() == b["rules_fingerprint"]
