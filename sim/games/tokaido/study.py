"""A study: a TOML grid of configurations played into one hive-partitioned dataset.

Keys of a study file (see ``studies/*.toml``)::

    seed, chunk_size                     one seed for every cell: cells share deals
    players     = [2, 3, 4, 5]
    variants    = ["none", "gastronomy+preparations"]   variant combos
    expansions  = ["none", "new-encounters"]
    bots        = ["greedy", "random"]   one name for all, or "b1+b2+..." per player
    travelers   = ["draft"]              draft | random | "name1+name2+..."
    pool        = ["all", "base"]        the Travelers dealt from (rule draft.pool): all in play,
                                         or boxes / names joined by "+"; optional
    games       = 10000                  per cell, or a table by player count
    [overrides]                          rule overrides for every cell (like --set), dotted keys
                                         as in a patch file: travelers.kinko.coins = 6; refused
                                         if one has no effect in any cell
    [[grid]]                             optional, repeatable: a grid of its own (any of players,
                                         variants, expansions, bots, travelers, pool, games; the
                                         keys above are its defaults). The study's cells are those
                                         of every grid, so one study can ask several questions
                                         without playing every combination.

Output: ``OUT/n_players=4/variants=none/expansions=none/bots=greedy/travelers=draft/``
holds that cell's part files and manifest (``.../pool=base/`` added when the study has a
``pool`` key); ``OUT/manifest.json`` the study's.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sim.dataset.manifest import Manifest, StudyCell, write_manifest
from sim.dataset.parts import PART_RE
from sim.errors import UserError
from sim.files import parse_toml, read_text
from sim.games.tokaido.game import TokaidoGame
from sim.games.tokaido.rules.config import ConfigError, GameConfig
from sim.games.tokaido.rules.inert import override_reason, override_reasons
from sim.overrides import flatten
from sim.run import outdir, progress, runner

if TYPE_CHECKING:
    from sim.run.cluster import Cluster

GRID_KEYS = ("players", "variants", "expansions", "bots", "travelers", "pool")
KEYS = ("name", "description", "seed", "chunk_size", "games", "overrides", "grid", *GRID_KEYS)
SUB_KEYS = ("about", "games", *GRID_KEYS)  # keys of a [[grid]]
ALL_POOL = "all"
MUTABLE_KEYS = ("name", "description", "games", "chunk_size")  # may change on --resume
STUDY_FILE = "a study file (TOML, like those in studies/)"


@dataclass(frozen=True)
class Cell:
    n_players: int
    variants: str
    expansions: str
    bots: str
    travelers: str
    games: int
    pool: str | None = None  # None: the study has no pool key (paths without it); "all": every Traveler

    def path(self) -> str:
        return (
            f"n_players={self.n_players}/variants={self.variants}/expansions={self.expansions}/"
            f"bots={self.bots}/travelers={self.travelers}" + (f"/pool={self.pool}" if self.pool else "")
        )

    def config(self, overrides: list[tuple[str, Any]]) -> GameConfig:
        def split(v: str) -> tuple[str, ...]:
            return () if v == "none" else tuple(v.split("+"))

        pool = [("draft.pool", self.pool)] if self.pool not in (None, ALL_POOL) else []
        return GameConfig(
            n_players=self.n_players,
            variants=split(self.variants),
            expansions=split(self.expansions),
            travelers=self.travelers.replace("+", ","),
            bots=tuple(self.bots.split("+")),
            overrides=(*overrides, *pool),
        )


@dataclass
class Study:
    raw: dict[str, Any]
    text: str
    seed: int
    chunk_size: int
    cells: list[Cell]
    configs: list[GameConfig]


def _list(raw: dict[str, Any], key: str, default: list[Any]) -> list[Any]:
    val = raw.get(key, default)
    if not isinstance(val, list) or not val:
        val = [val] if isinstance(val, str | int) and not isinstance(val, bool) else None
    if val is None:
        raise UserError(f"study key '{key}' must be a non-empty list, e.g. {key} = {default!r}")
    if len(set(map(str, val))) != len(val):
        raise UserError(f"study key '{key}' lists a value twice")
    return val


def _grids(raw: dict[str, Any], source: str) -> list[dict[str, Any]]:
    """The study's grids: each ``[[grid]]`` over the top-level keys, or the top level alone."""
    subs = raw.get("grid")
    if subs is None:
        return [raw]
    if not isinstance(subs, list) or not subs or not all(isinstance(g, dict) for g in subs):
        raise UserError(
            f"{source}: 'grid' must be tables written [[grid]], each with keys such as players = [3, 4]"
        )
    out = []
    for i, sub in enumerate(subs, 1):
        unknown = sorted(set(sub) - set(SUB_KEYS))
        if unknown:
            raise UserError(
                f"{source}: [[grid]] {i}: unknown key '{unknown[0]}'; known keys: {', '.join(SUB_KEYS)}"
            )
        out.append({**{k: v for k, v in raw.items() if k in GRID_KEYS or k == "games"}, **sub})
    return out


def _games(raw: dict[str, Any], n: int) -> int:
    g = raw.get("games")
    if isinstance(g, dict):
        g = g.get(str(n))
        if g is None:
            raise UserError(f"study table [games] has no entry for {n} players; add '{n} = GAMES'")
    if not isinstance(g, int) or isinstance(g, bool) or g < 1:
        raise UserError(
            f"study key 'games' must be a positive whole number or a table by player count, got {g!r}"
        )
    return g


def parse_study(text: str, source: str = "study") -> Study:
    """Parse and validate a study file's text; every cell's configuration is checked."""
    raw = parse_toml(text, source, STUDY_FILE)
    unknown = sorted(set(raw) - set(KEYS))
    if unknown:
        raise UserError(f"{source}: unknown key '{unknown[0]}'; known keys: {', '.join(KEYS)}")
    seed, chunk = raw.get("seed"), raw.get("chunk_size", runner.DEFAULT_CHUNK_SIZE)
    for key, val in (("seed", seed), ("chunk_size", chunk)):
        if not isinstance(val, int) or isinstance(val, bool):
            raise UserError(f"{source}: '{key}' must be a whole number, got {val!r}")
    table = raw.get("overrides", {})
    if not isinstance(table, dict):
        raise UserError(f"{source}: 'overrides' must be a table of rule keys, e.g. [overrides]")
    # dotted keys (travelers.kinko.coins = 6) arrive as nested tables, quoted ones as they are
    overrides = flatten(table, f"{source} [overrides]") if table else []
    assert isinstance(seed, int) and isinstance(chunk, int)
    cells: list[Cell] = []
    configs: list[GameConfig] = []
    grids = _grids(raw, source)
    has_pool = "pool" in raw or any("pool" in g for g in grids)
    for grid in grids:
        for cell in _grid_cells(grid, source, has_pool):
            same = next((c for c in cells if c.path() == cell.path()), None)
            if same is not None:
                if same.games != cell.games:
                    raise UserError(
                        f"{source}: cell {cell.path()} is in two grids with {same.games:,} and "
                        f"{cell.games:,} games; give it one number"
                    )
                continue
            try:
                config = cell.config(overrides)
                config.cfg_array(config.rules())
                refuse_pool = (
                    override_reason(config, "draft.pool") if cell.pool not in (None, ALL_POOL) else None
                )
            except ConfigError as exc:
                raise UserError(f"{source}, cell {cell.path()}: {exc}") from None
            if refuse_pool:
                raise UserError(
                    f"{source}, cell {cell.path()}: pool {cell.pool} has no effect: {refuse_pool}; "
                    "drop it from that grid"
                )
            runner.validate(cell.games, seed, chunk, None)
            cells.append(cell)
            configs.append(config)
    seen: dict[tuple[Any, ...], Cell] = {}
    for cell, cfg in zip(cells, configs, strict=True):  # "a+b" and "b+a" are one cell: played once
        games = (
            cfg.n_players,
            frozenset(cfg.variants),
            frozenset(cfg.expansions),
            cfg.travelers,
            tuple(cfg.bot_names()),
            cell.pool,
        )
        if games in seen:
            raise UserError(
                f"{source}: the cells {seen[games].path()} and {cell.path()} are the same games (the "
                "order of variants or expansions, or one bot named for all, changes nothing); "
                "list it once"
            )
        seen[games] = cell
    per_cell = [override_reasons(cfg) for cfg in configs]
    for i, (key, value) in enumerate(overrides):  # an override for every cell must matter in one at least
        reasons = [r[i] for r in per_cell]
        if reasons and all(reasons):
            raise UserError(
                f"{source}: [overrides] {key} = {value!r} has no effect in any cell: {reasons[0]}; "
                "drop it or add what it needs"
            )
    return Study(raw, text, seed, chunk, cells, configs)


def _grid_cells(grid: dict[str, Any], source: str, has_pool: bool) -> list[Cell]:
    out = []
    pools = [str(p) for p in _list(grid, "pool", [ALL_POOL])] if has_pool else [None]
    for n in _list(grid, "players", [4]):
        if not isinstance(n, int) or isinstance(n, bool):
            raise UserError(f"{source}: 'players' must list whole numbers, got {n!r}")
        for v in _list(grid, "variants", ["none"]):
            for x in _list(grid, "expansions", ["none"]):
                for b in _list(grid, "bots", ["greedy"]):
                    for t in _list(grid, "travelers", ["draft"]):
                        for pool in pools:
                            out.append(Cell(n, str(v), str(x), str(b), str(t), _games(grid, n), pool))
    return out


def load_study(file: str | os.PathLike[str]) -> Study:
    path = Path(file)
    text = read_text(path, STUDY_FILE)
    return parse_study(text, str(path))


def _check_same_study(manifest: Manifest, study: Study, out: Path) -> None:
    old = {k: v for k, v in (manifest.study or {}).items() if k not in MUTABLE_KEYS}
    new = {k: v for k, v in study.raw.items() if k not in MUTABLE_KEYS}
    if old != new:
        key = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))[0]
        raise UserError(
            f"the study changed since {out} was started ('{key}' differs); "
            "restore the study file or choose another --out"
        )


def _done(cell_dir: Path) -> int:
    if not cell_dir.is_dir():
        return 0
    spans = [PART_RE.match(p.name) for p in cell_dir.iterdir()]
    return sum(int(m[2]) - int(m[1]) for m in spans if m)


def run_study(
    file: str | os.PathLike[str],
    out_dir: str | os.PathLike[str],
    resume: bool = False,
    quiet: bool = False,
    threads: int | None = None,
    cluster: Cluster | None = None,
) -> Manifest:
    """Run every cell of the study ``file`` into ``out_dir``; return the study manifest.

    With ``cluster`` several cells are in flight at once, their chunks played by its workers.
    """
    study = load_study(file)
    out = Path(out_dir)
    runner.validate(1, study.seed, study.chunk_size, threads)
    manifest = outdir.prepare_out_dir(out, resume, kind="study")
    if manifest is not None:
        _check_same_study(manifest, study, out)
    out.mkdir(parents=True, exist_ok=True)
    with outdir.lock_dir(out):
        outdir.clean_temp_files(out)
        if manifest is None:
            manifest = Manifest(kind="study", file=str(Path(file).resolve()), started=outdir.now())
        manifest.study_toml, manifest.study, manifest.seed = study.text, study.raw, study.seed
        manifest.versions, manifest.status, manifest.finished = outdir.versions(), "running", None
        manifest.cells = [
            StudyCell(c.path(), cfg.spec(), c.games)
            for c, cfg in zip(study.cells, study.configs, strict=True)
        ]
        write_manifest(out, manifest)
        total = sum(c.games for c in study.cells)
        done = sum(min(_done(out / c.path()), c.games) for c in study.cells)
        try:
            with progress.progress_bar(total, done, not quiet, "study") as advance:
                lock = threading.Lock()  # cells may run on several threads (cluster)

                def run_cell(cell: Cell, cfg: GameConfig, entry: StudyCell) -> None:
                    with lock:
                        entry.status = "running"
                        write_manifest(out, manifest)
                    runner.run(
                        TokaidoGame(cfg),
                        cell.games,
                        study.seed,
                        out / cell.path(),
                        study.chunk_size,
                        threads,
                        resume=True,
                        progress=False,
                        on_progress=advance,
                        cluster=cluster,
                    )
                    with lock:
                        entry.status = "complete"

                items = list(zip(study.cells, study.configs, manifest.cells, strict=True))
                if cluster is None:
                    for item in items:
                        run_cell(*item)
                else:
                    cluster.each(run_cell, items)
        except BaseException:
            manifest.status = "interrupted"
            write_manifest(out, manifest)
            raise
        manifest.status, manifest.finished = "complete", outdir.now()
        write_manifest(out, manifest)
    return manifest
