"""``run_balance``: checks, the output directory and its state, the search, the confirmation, the outputs.

Layout of ``OUT``::

    manifest.json               kind "balance": the request, status, sessions, the result
    search/CANDIDATE/players=N  the search's runs (seed --seed), one per candidate and player count
    confirm/CANDIDATE/players=N the confirmation's runs (seed --confirm-seed): the start and the proposal
    patch.toml  balance.md  forest.png

Resuming (``--resume``) needs the same request; the search replays its decisions from the
games on disk (it is deterministic given them) and plays only the games that are missing.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.dataset.manifest import Manifest, write_manifest
from sim.errors import UserError
from sim.games.tokaido.balance.bracket import bracket
from sim.games.tokaido.balance.checks import tier_check, tuned_for
from sim.games.tokaido.balance.evaluate import Evaluator
from sim.games.tokaido.balance.knobs import DEFAULT_KNOBS, parse_knobs
from sim.games.tokaido.balance.report import write_outputs
from sim.games.tokaido.balance.search import Settings, confirm, search, validate
from sim.games.tokaido.rules.config import GameConfig
from sim.run import outdir, progress, runner

if TYPE_CHECKING:
    from sim.run.cluster import Cluster


def _rules_text(config: GameConfig) -> str:
    parts = ["base game"]
    if config.variants:
        parts.append("variants " + ", ".join(config.variants))
    if config.expansions:
        parts.append("expansions " + ", ".join(config.expansions))
    sets = [f"--set {k}={','.join(map(str, v)) if isinstance(v, list) else v}" for k, v in config.overrides]
    if len(sets) > 4:  # a patch file of them: the manifest holds them all
        sets = [*sets[:3], f"... ({len(sets)} overrides in all, listed in manifest.json)"]
    return "; ".join(parts + sets)


def only_travelers(text: str | None, travelers: list[str]) -> list[str]:
    """The Travelers of ``--only`` (comma-separated), checked against the pool of the rules."""
    if text is None:
        return []
    names = [x.strip().lower() for x in text.replace("+", ",").split(",") if x.strip()]
    if not names:
        raise UserError("--only names no Traveler; give e.g. --only kinko or --only kinko,hirotada")
    for name in names:
        if name not in travelers:
            raise UserError(
                f"--only: no Traveler '{name}' in these rules; choose from: {', '.join(travelers)}"
            )
    if len(set(names)) != len(names):
        raise UserError("--only names a Traveler twice; list each once")
    return names


def run_balance(
    configs: dict[int, GameConfig],
    knobs_text: str | None,
    s: Settings,
    out: Path,
    resume: bool = False,
    quiet: bool = False,
    threads: int | None = None,
    cluster: Cluster | None = None,
    only: str | None = None,
) -> Manifest:
    """Search, confirm and write the outputs into ``out``; return the manifest. Checks everything first.

    ``only`` (``--only``): the Travelers to make fair (the others are not judged); their own coins are the
    knobs unless ``knobs_text`` names others, and where fair lies between two whole coin values is measured
    on the confirmation's fresh seeds (``bracket``). ``knobs_text`` None: ``travelers.*.coins``, or with
    ``only`` each named Traveler's coins.
    """
    players = sorted(configs)
    first = configs[players[0]]
    if first.travelers != "random":
        raise UserError(
            "balance deals the Travelers at random (fair share 1/N needs every Traveler equally often)"
        )
    if len({c.bots for c in configs.values()}) != 1 or len(first.bots) != 1:
        raise UserError("balance needs one bot tier for every player, e.g. --bots expert")
    travelers = [t.name for t in first.rules().travelers]
    focus = only_travelers(only, travelers)
    if knobs_text is None:
        knobs_text = ",".join(f"travelers.{t}.coins" for t in focus) if focus else DEFAULT_KNOBS
    knobs = parse_knobs(knobs_text, [configs[n] for n in players], s.max_change)
    validate(s, players, knobs)
    runner.validate(1, s.seed, s.chunk_size, threads)
    mask = np.array([t in focus for t in travelers]) if focus else None
    request = json.loads(
        json.dumps(
            {
                "players": players,
                "configs": {str(n): configs[n].to_dict() for n in players},
                "knobs": knobs_text,
                "settings": s.to_dict(),
                "rules_fingerprint": {str(n): configs[n].rules().fingerprint() for n in players},
                **({"only": focus} if focus else {}),
            }
        )
    )
    manifest = outdir.prepare_out_dir(out, resume, kind="balance")
    if manifest is not None and manifest.extra.get("request") != request:
        old = manifest.extra.get("request") or {}
        key = sorted(k for k in set(old) | set(request) if old.get(k) != request.get(k))[0]
        raise UserError(
            f"{out} holds a balance search with other options ('{key}' differs); resume with the "
            "same options or choose another --out"
        )
    out.mkdir(parents=True, exist_ok=True)
    about: dict[str, Any] = {
        "bots": first.bots[0],
        "rules": _rules_text(first),
        "knobs": knobs_text,
        "only": focus,
        "tuned": tuned_for(first.bots[0], [configs[n] for n in players]),
    }
    with outdir.lock_dir(out):
        outdir.clean_temp_files(out)
        if manifest is None:
            manifest = Manifest(kind="balance", started=outdir.now(), extra={"sessions": []})
        manifest.status, manifest.versions, manifest.finished = "running", outdir.versions(), None
        manifest.extra["request"] = request
        write_manifest(out, manifest)
        m = manifest
        t0 = time.perf_counter()
        total = s.budget + 2 * s.confirm_games * len(players) * (1 + len(focus))

        def session(status: str) -> None:
            past = m.extra.get("sessions", [])
            m.extra["sessions"] = [
                *past,
                {"at": outdir.now(), "seconds": round(time.perf_counter() - t0, 1), "status": status},
            ]

        try:
            with progress.status_bar(total, 0, not quiet, "balance: screening") as (advance, status):
                ev = Evaluator(
                    configs, knobs, out / "search", s.seed, s.chunk_size, threads, cluster, advance, mask
                )
                outcome = search(ev, knobs, travelers, s, status)
                left = (
                    s.confirm_games * len(players) * (2 + 2 * len(focus))
                )  # at most: before, after, neighbours
                status(f"confirming on fresh seeds (seed {s.confirm})", ev.spent + left)
                conf = confirm(
                    configs, knobs, outcome.change, s, out / "confirm", threads, cluster, advance, mask
                )
                fairs = []
                if focus:  # the same root and seed as the confirmation: its runs are reused, not replayed
                    fresh = Evaluator(
                        configs,
                        knobs,
                        out / "confirm",
                        s.confirm,
                        s.chunk_size,
                        threads,
                        cluster,
                        advance,
                        mask,
                    )
                    fairs = bracket(fresh, knobs, outcome.change, travelers, focus, s.confirm_games, status)
        except BaseException:
            session("interrupted")
            m.status = "interrupted"
            write_manifest(out, m)
            raise
        session("complete")
        sessions = m.extra["sessions"]
        about.update(
            seconds=sum(x["seconds"] for x in sessions),
            sessions=len(sessions),
            confirm_games=s.confirm_games * len(players) * (2 if any(outcome.change) else 1),
        )
        checks = tier_check(first.bots[0], focus, [configs[n] for n in players], fairs) if focus else []
        result = write_outputs(out, knobs, travelers, outcome, conf, s, about, fairs, checks)
        m.status, m.finished = "complete", outdir.now()
        m.extra.update(
            result=result, log=outcome.log, seconds=about["seconds"], confirm_games=about["confirm_games"]
        )
        write_manifest(out, m)
    return m
