"""The referee's Matsuri rules, written from the rulebook (seed 002, "The Matsuri", "Matsuri effects").

At each of the 3 intermediate Inns, once every traveler has arrived and eaten,
the first player to arrive draws 2 festival cards, keeps 1 (the other goes
under the stack) and the kept card acts: at once (NOW), on the station stops of
the next leg (LEG), or at the next Inn (Cho-yo). The arithmetic is in
``sim/games/tokaido/referee/matsuri_cards.py``; the log contract is the section "Matsuri" of
``docs/log-format.md``; choices M1-M30 are those of ``../shared/research/expansions.md``
part A. The 2-player Neutral takes part in no card (M28), but closed spaces bind
it (M12) and its Temple coins take a rank in Shishimai (M23).

``Matsuri`` is built only for a Matsuri game (so with Crossroads, and its ``Amulets`` for the
Fortune die); the turn and the stations call its hooks when it is there. The Matsuri Travelers,
who also come as promos, are ``matsuri_travelers.py``.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator
from typing import Any

from kernels.tokaido.core.enums import Ability, Deck, DieSrc, Ev, Opt, PanSrc, Space
from sim.games.tokaido.referee.amulets import Amulets
from sim.games.tokaido.referee.context import Replay, StationActions, Step
from sim.games.tokaido.referee.matsuri_cards import (
    CARD_TIMING,
    CLOSURE_SPACE,
    LEG,
    closures,
    ofune_completers,
    shishimai_points,
    tanabata_winners,
    token_points,
)
from sim.games.tokaido.referee.promos import Promos
from sim.games.tokaido.referee.scoring import END_ACHIEVEMENTS, calligraphy_points, end_achievement_count
from sim.games.tokaido.referee.state import (
    PANORAMA_SPACES,
    Event,
    Illegal,
    InnVisit,
    TravelerState,
    calligraphy_kind,
)

SEA, MOUNTAIN, PADDY = 2, 1, 0
DOLL, CARP, JOURNEY = 0, 1, 2  # TOKEN kinds
TOKEN_NAMES = ("doll", "carp", "journey points")


class Matsuri:
    """The Matsuri stack, the festival at each intermediate Inn, and the cards' effects."""

    stations: StationActions  # the Encounters and panorama cards the cards give; set by ``Referee``

    def __init__(self, ctx: Replay, amulets: Amulets, promos: Promos) -> None:
        self.ctx, self.state, self.rules, self.params = ctx, ctx.state, ctx.rules, ctx.params
        self.amulets = amulets  # the Fortune die of o-Shogatsu and Setsubun
        self.promos = promos  # Antoine's ties, Eriku's Fasting

    # ================================================================ data
    @property
    def _mdata(self) -> dict[str, Any]:
        return self.rules.raw["matsuri"]

    def _kind(self, card: int) -> str:
        return str(self._mdata["card"][card]["kind"])

    def _mname(self, card: int) -> str:
        return (
            str(self._mdata["card"][card]["name"]) if 0 <= card < len(self._mdata["card"]) else f"card {card}"
        )

    def _arrival(self, inn: InnVisit) -> list[TravelerState]:
        """The players in the order they reached ``inn``; the Neutral takes part in no card (M28)."""
        return [self.state.travelers[t] for t in inn.arrived if not self.state.travelers[t].neutral]

    # ================================================================ set-up
    def matsuri_deck(self, ev: Event) -> None:
        """``DECK(-, 9, card)``: the Matsuri stack, top card first."""
        stack = self.state.m.stack
        if not 0 <= ev.b < len(self._mdata["card"]) or ev.b in stack.cards:
            raise Illegal(ev, f"matsuri card {ev.b}: each of the {len(self._mdata['card'])} cards once")
        stack.put_under(ev.b)

    def check_matsuri_stack(self, ev: Event) -> None:
        n = len(self._mdata["card"])
        if len(self.state.m.stack) != n:
            raise Illegal(ev, f"the matsuri stack has {len(self.state.m.stack)} of its {n} cards")

    # ================================================================ the festival at an Inn
    def inn_matsuri(self, inn: InnVisit) -> Step:
        """After the last arrival's meal: the previous Inn's cards end; at an intermediate Inn a Matsuri."""
        st = self.state
        m = st.m
        m.leg.clear()  # "until the next Inn": LEG effects and their Closed Space tokens end here
        m.closed.clear()
        if m.cho_yo_at == inn.pos:
            m.cho_yo_at = -1
        if not st.is_intermediate_inn(inn.pos):
            return
        players = self._arrival(inn)
        chooser = players[0]  # "the first player to arrive at the Inn" (M4: the Neutral is no player)
        first = st.travelers[inn.arrived[0]]
        if (
            first.neutral
            and not self._mdata["choices"]["first_arrival_skips_neutral"]
            and first.moved_by >= 0
        ):
            chooser = st.travelers[
                first.moved_by
            ]  # M4's alternative: whoever moved the Neutral there chooses
        inn_no = sum(1 for p in range(1, inn.pos + 1) if st.is_intermediate_inn(p))
        n = min(int(self._mdata["draw"]), len(m.stack))
        drawn = []
        for i in range(n):
            drawn.append((yield from self._matsuri_draw(chooser, f"{i + 1} of {n} at inn {inn_no}")))
        ev = yield from self.ctx.take(Ev.MATSURI, chooser, "the festival card kept")
        rejected = [c for c in drawn if c != ev.a]
        want_rej = rejected[0] if len(rejected) == 1 else -1
        if ev.a not in drawn or len(rejected) != len(drawn) - 1 or ev.b != want_rej:
            raise Illegal(
                ev,
                f"{chooser.name} drew {', '.join(self._mname(c) for c in drawn)}: keeps one "
                f"(a = {ev.a}) and rejects the other (b = {ev.b})",
            )
        if (ev.c, ev.d) != (inn_no, 0):
            raise Illegal(
                ev, f"the kept card of inn {inn_no} is (c, d) = ({inn_no}, 0), not ({ev.c}, {ev.d})"
            )
        for c in rejected:
            m.stack.put_under(c)  # "places the other under the stack, without showing it"
        m.kept[inn_no - 1], m.rejected[inn_no - 1] = ev.a, want_rej
        self.ctx.flush()
        self.ctx.header = f"matsuri at inn {inn_no}: {chooser.name} keeps {self._mname(ev.a)}" + (
            f", rejects {self._mname(want_rej)}" if want_rej >= 0 else ""
        )
        yield from self.card_effect(chooser, ev.a, inn, inn_no)
        self.ctx.flush()

    def _hanabi_order(self, chooser: TravelerState, extra: list[int]) -> Generator[None, Event, list[int]]:
        """``OPTION(chooser, hanabi order, b)``: b = 1 resolves the second card drawn first."""
        ev = yield from self.ctx.take(Ev.OPTION, chooser, "the order of hanabi's cards")
        if ev.a != Opt.HANABI_ORDER or ev.b not in (0, 1):
            raise Illegal(ev, f"option {ev.a}={ev.b}, expected hanabi's order ({Opt.HANABI_ORDER}) = 0 or 1")
        self.ctx.note(f"{chooser.name} resolves {self._mname(extra[ev.b])} first")
        return extra[::-1] if ev.b else extra

    def _matsuri_draw(self, tr: TravelerState, what: str) -> Generator[None, Event, int]:
        ev = yield from self.ctx.take(Ev.DRAW, tr, f"a matsuri card ({what})")
        top = self.state.m.stack.top()
        if ev.a != Deck.MATSURI:
            raise Illegal(ev, f"deck {ev.a}, expected the matsuri stack (deck {Deck.MATSURI})")
        if top is None or ev.b != top:
            raise Illegal(
                ev,
                f"drew {self._mname(ev.b)} but the top of the matsuri stack is "
                f"{self._mname(top) if top is not None else 'nothing'}",
            )
        return self.state.m.stack.draw()

    def card_effect(self, chooser: TravelerState, card: int, inn: InnVisit, inn_no: int) -> Step:
        st, m, d = self.state, self.state.m, self._mdata
        kind = self._kind(card)
        players = self._arrival(inn)
        if CARD_TIMING[kind] == LEG:
            m.leg.append(kind)
            if kind in CLOSURE_SPACE:
                yield from self._close(card, kind, inn)
            else:
                self.ctx.note(f"{self._mname(card)} until the next inn")
        elif kind == "choyo":
            m.cho_yo_at = st.next_inn(inn.pos)
            self.ctx.note("cho-yo: meals cost less at the next inn")
        elif kind == "hanabi":  # two more cards, each with its own effect, in draw order (M18)
            extra = []
            for i in range(min(int(d["hanabi_draw"]), len(m.stack))):
                extra.append((yield from self._matsuri_draw(chooser, f"hanabi {i + 1}")))
            if d["choices"]["hanabi_order"] == "chooser" and len(extra) == 2:  # M18's alternative
                extra = yield from self._hanabi_order(chooser, extra)
            for c in extra:
                ev = yield from self.ctx.take(Ev.MATSURI, chooser, "a hanabi card coming into play")
                if (ev.a, ev.b, ev.c, ev.d) != (c, -1, inn_no, 1):
                    raise Illegal(
                        ev,
                        f"hanabi's next card is {self._mname(c)}: MATSURI({c}, -1, {inn_no}, 1), "
                        f"not ({ev.a}, {ev.b}, {ev.c}, {ev.d})",
                    )
                m.hanabi.append(c)
                self.ctx.note(f"hanabi brings {self._mname(c)}")
                yield from self.card_effect(chooser, c, inn, inn_no)
        elif kind == "obon":
            for tr in players:
                yield from self._obon(tr)
        elif kind == "tori_no_ichi":
            for tr in players:
                if not tr.amulets and st.amulet_market:  # "who doesn't have an Amulet" (M15)
                    ev = yield from self.ctx.take(Ev.GAIN, tr, "tori no ichi's free amulet")
                    if ev.a != Deck.AMULET or ev.b not in st.amulet_market or ev.c != 0:
                        raise Illegal(
                            ev,
                            f"tori no ichi gives a free amulet of the market "
                            f"{sorted(st.amulet_market)}, not deck {ev.a} card {ev.b} for {ev.c}",
                        )
                    st.amulet_market.remove(ev.b)
                    tr.amulets.add(ev.b)
                    tr.amulets_acquired += 1
                    self.ctx.note(f"{tr.name} gets the {self.rules.amulets[ev.b]} amulet")
        elif kind in ("hina", "tango"):
            gender = "F" if kind == "hina" else "M"
            for tr in players:
                if tr.traveler_id >= 0 and self.rules.travelers[tr.traveler_id].gender == gender:
                    yield from self._doll(tr, DOLL if kind == "hina" else CARP, card)
        elif kind == "ofune":
            yield from self._ofune(players, card)
        elif kind in ("oshogatsu", "setsubun"):
            for tr in players:  # a free roll: always taken (M20)
                src = DieSrc.SHOGATSU if kind == "oshogatsu" else DieSrc.SETSUBUN
                face = yield from self.amulets.die(tr, 0, src)
                if kind == "oshogatsu":
                    self.ctx.coins(tr, face, "o-shogatsu")
                elif face > 0:
                    yield from self._token(tr, JOURNEY, face, card, -1, "setsubun")
        elif kind == "tanabata":
            yield from self._tanabata(card)
        elif kind == "otsukimi":
            if st.calligraphy_market:
                ev = yield from self.ctx.take(Ev.PICK, chooser, "o-tsukimi's shared calligraphy")
                if ev.a != Deck.CALLIGRAPHY or ev.b not in st.calligraphy_market or ev.c != card:
                    raise Illegal(
                        ev,
                        f"o-tsukimi takes a calligraphy card of the market "
                        f"{sorted(st.calligraphy_market)}: PICK(6, card, {card})",
                    )
                st.calligraphy_market.remove(ev.b)
                m.shared_calligraphy.append(ev.b)
                self.ctx.note(f"o-tsukimi: everyone will score {self.rules.calligraphy[ev.b]}")
        elif kind == "shishimai":
            yield from self._shishimai(card)

    # ================================================================ NOW cards
    def _obon(self, tr: TravelerState) -> Step:
        """o-Bon: 0-3 coins onto the Temple, a point each, no Temple ability (M14)."""
        if tr.coins < 1:
            return
        ev = yield from self.ctx.take(Ev.OPTION, tr, "o-bon's donation")
        most = min(int(self._mdata["obon_max"]), tr.coins)
        if ev.a != Opt.OBON or not 0 <= ev.b <= most:
            raise Illegal(
                ev, f"o-bon: {tr.name} donates 0..{most} coins (OPTION {Opt.OBON}), not {ev.a}={ev.b}"
            )
        if ev.b:
            self.ctx.coins(tr, -ev.b, "o-bon")
            tr.donated += ev.b
            self.ctx.score(tr, "pts_temple", ev.b, f"o-bon: {ev.b} coins on the temple")

    def _token(self, tr: TravelerState, kind: int, pts: int, card: int, detail: int, why: str) -> Step:
        ev = yield from self.ctx.take(Ev.TOKEN, tr, f"a {TOKEN_NAMES[kind]} token: {why}")
        if (ev.a, ev.b, ev.c, ev.d) != (kind, pts, card, detail):
            raise Illegal(
                ev,
                f"{why}: {tr.name} takes a {TOKEN_NAMES[kind]} token worth {pts} "
                f"(TOKEN {kind}, {pts}, {card}, {detail}), not ({ev.a}, {ev.b}, {ev.c}, {ev.d})",
            )
        self.ctx.score(tr, "pts_matsuri", pts, why)
        if kind == JOURNEY:
            tr.m_tokens += 1

    def _doll(self, tr: TravelerState, kind: int, card: int) -> Step:
        """A Doll / Carp token: the next slot of ``matsuri.doll_family`` (Small objects) in the sets, no
        Souvenir card (M17)."""
        fam = self.rules.souvenir_families.index(self._mdata["doll_family"])
        pts, k, place = token_points(tr.family_counts, self.state.set_points, fam)
        why = f"{'hina matsuri' if kind == DOLL else 'tango'} ({TOKEN_NAMES[kind]}: set {k}, family {place})"
        yield from self._token(tr, kind, pts, card, -1, why)
        tr.family_counts[fam] += 1
        if kind == DOLL:
            tr.dolls += 1
        else:
            tr.carps += 1

    def _ofune(self, players: list[TravelerState], card: int) -> Step:
        """o-Fune: everyone takes the next Sea section; simultaneous completers all score (M19)."""
        st = self.state
        length = self.rules.panorama_lengths[SEA]
        held_before = st.pan_achievement[SEA] is not None
        finishers = {players[i].index for i in ofune_completers([p.panorama[SEA] for p in players], length)}
        ant = self.promos.antoine()
        wins = ant in finishers and len(finishers) > 1 and not held_before  # his tie (P1d): the card, alone
        if wins:
            players = sorted(players, key=lambda p: p.index != ant)  # he takes his section first
        for tr in players:
            if st.panorama_complete(tr, SEA):
                continue
            yield from self.stations.panorama(tr, PanSrc.OFUNE, [SEA])
            if tr.index in finishers and not held_before and st.pan_achievement[SEA] != tr.index and not wins:
                yield from self._token(
                    tr,
                    JOURNEY,
                    int(self.params["PAN_ACH_POINTS"]),
                    card,
                    -1,
                    "o-fune: completes the sea with the others",
                )
                if st.m_choice("ofune_shared_counts_as_card"):
                    tr.achievements.append("sea panorama (o-fune)")

    def _tanabata(self, card: int) -> Step:
        """Tanabata: the end achievements judged now; every tied leader takes a 2-point token (M21)."""
        players = self.state.players()
        pts = int(self._mdata["tanabata_points"])
        for i, name in enumerate(END_ACHIEVEMENTS):
            counts = [end_achievement_count(tr, name) for tr in players]
            winners = {players[w].index for w in tanabata_winners(counts, self.params["ACH_MIN"])}
            ant = self.promos.antoine()
            if ant is not None and ant in winners:
                winners = {ant}  # Antoine wins the ties he is part of (P1d)
            yield from self._tokens_any_order(card, {t: (pts, i) for t in winners}, f"tanabata {name}")

    def _shishimai(self, card: int) -> Step:
        """Shishimai: the top three Temple donors now score 4 / 2 / 1; the Neutral takes a rank (M23)."""
        st = self.state
        points = [int(x) for x in self._mdata["shishimai_points"]]
        ant = self.promos.antoine()  # his amount ranks above an equal one (P1a, P1d): compare 2 d + 1
        donated = [2 * tr.donated + (tr.index == ant and tr.donated > 0) for tr in st.travelers]
        amounts = sorted({x for x in donated if x > 0}, reverse=True)  # dense ranks, none skipped
        bonus = shishimai_points(donated, points)
        due = {
            tr.index: (bonus[tr.index], amounts.index(donated[tr.index]))
            for tr in st.players()
            if tr.donated > 0 and amounts.index(donated[tr.index]) < len(points)
        }
        yield from self._tokens_any_order(card, due, "shishimai")

    def _tokens_any_order(self, card: int, due: dict[int, tuple[int, int]], why: str) -> Step:
        """One Journey-point ``TOKEN(t, 2, points, card, detail)`` per traveler of ``due``, in any order:
        the rulebook awards them at once."""
        left = dict(due)
        while left:
            ev = yield from self.ctx.take(Ev.TOKEN, None, f"{why}: tokens for travelers {sorted(left)}")
            if ev.t not in left:
                raise Illegal(ev, f"{why}: traveler {ev.t} takes no token (due: {sorted(left)})")
            pts, detail = left.pop(ev.t)
            tr = self.state.travelers[ev.t]
            if (ev.a, ev.b, ev.c, ev.d) != (JOURNEY, pts, card, detail):
                raise Illegal(
                    ev,
                    f"{why}: {tr.name}'s token is (2, {pts}, {card}, {detail}), "
                    f"not ({ev.a}, {ev.b}, {ev.c}, {ev.d})",
                )
            self.ctx.score(tr, "pts_matsuri", int(ev.b), why)
            tr.m_tokens += 1

    # ================================================================ LEG cards
    def _close(self, card: int, kind: str, inn: InnVisit) -> Step:
        """Kamiarisai / Toka Ebisu / Mura: ``CLOSE`` for each such station of the next leg (M10-M11)."""
        st, m = self.state, self.state.m
        left = int(self._mdata["closed_space_tokens"]) - sum(m.closed.values())
        want = closures(
            st.board, st.double, inn.pos, st.next_inn(inn.pos), CLOSURE_SPACE[kind], st.n_trav, left
        )
        for pos in want:
            ev = yield from self.ctx.take(Ev.CLOSE, None, f"{self._mname(card)} closes space {pos}")
            full = 0 if st.double[pos] else 1
            if (ev.a, ev.b, ev.c) != (pos, full, card):
                raise Illegal(
                    ev,
                    f"{self._mname(card)}: the next station to close is {pos} "
                    f"(CLOSE {pos}, {full}, {card}), not ({ev.a}, {ev.b}, {ev.c})",
                )
            m.closed[pos] = m.closed.get(pos, 0) + 1
            self.ctx.note(f"closes {'' if full else 'half of '}space {pos} ({st.space_name(pos)})")

    def leg_stop(self, tr: TravelerState, kind: int) -> Step:
        """A player's station stop under the LEG cards, right after ``MOVE`` (before ``USE`` and
        ``CHOICE``)."""
        st, leg, d = self.state, self.state.m.leg, self._mdata
        if "hadaka" in leg and kind == Space.HOT_SPRING and st.piles[Deck.ENCOUNTER]:
            if (yield from self.ctx.option(tr, Opt.HADAKA)):  # an Encounter first, drawn blind (M7)
                if tr.ability == Ability.UMEGAE:
                    self.stations.umegae(tr)  # "1 point and 1 coin for each Encounter"
                yield from self.stations.encounter(tr)
        if "yama_no_ko" in leg and kind == Space.MOUNTAIN and not st.panorama_complete(tr, MOUNTAIN):
            if (yield from self.ctx.option(tr, Opt.YAMA_NO_KO)):
                for _ in range(int(d["yama_sections"])):
                    if not st.panorama_complete(tr, MOUNTAIN):
                        yield from self.stations.panorama(tr, PanSrc.YAMA_NO_KO, [MOUNTAIN])
        if "otaue" in leg and kind == Space.PADDY and not st.panorama_complete(tr, PADDY):
            if (yield from self.ctx.option(tr, Opt.OTAUE)):  # a bank coin onto the Temple in their name (M26)
                coins = int(d["otaue_coins"])
                tr.donated += coins
                self.ctx.score(tr, "pts_temple", coins, "o-taue: a bank coin on the temple")
        if "ohanami" in leg and kind in PANORAMA_SPACES:
            self.ctx.coins(tr, int(d["hanami_coins"]), "o-hanami")

    def gion_pick(self, tr: TravelerState) -> Generator[None, Event, int]:
        """Gion: ``PICK`` any card of the Encounter pile, the rest reshuffled (``DECK`` rows), then
        ``GAIN``."""
        pile = self.state.piles[Deck.ENCOUNTER]
        card = next(i for i, c in enumerate(self._mdata["card"]) if c["kind"] == "gion")
        ev = yield from self.ctx.take(Ev.PICK, tr, "gion's chosen encounter")
        if ev.a != Deck.ENCOUNTER or ev.b not in pile.cards or ev.c != card:
            raise Illegal(
                ev,
                f"gion: {tr.name} picks a card of the encounter pile (PICK 3, card, {card}), "
                f"not ({ev.a}, {ev.b}, {ev.c})",
            )
        pile.cards.remove(ev.b)
        rest, order = set(pile.cards), []
        for _ in range(len(rest)):
            dk = yield from self.ctx.take(Ev.DECK, None, "the encounter pile reshuffled after gion")
            if dk.a != Deck.ENCOUNTER or dk.b not in rest or dk.b in order:
                raise Illegal(
                    dk, f"the reshuffled encounter pile holds {sorted(rest)}, each once; not {dk.b}"
                )
            order.append(dk.b)
        pile.cards = deque(order)
        yield from self.ctx.gain_free(tr, Deck.ENCOUNTER, [ev.b], "gion's encounter")
        return int(ev.b)

    # ================================================================ end of the game
    def score_shared_calligraphy(self) -> None:
        """o-Tsukimi: every player scores the shared card on their own collection; nobody holds it (M22)."""
        st = self.state
        final = st.inns.get(st.last)
        arrived = final.arrived if final is not None else []
        for card in st.m.shared_calligraphy:
            kind = calligraphy_kind(self.rules, card)
            for tr in st.players():
                arrival = arrived.index(tr.index) if tr.index in arrived else st.n_trav - 1
                pts = calligraphy_points(  # Eriku's Fasting counts his start meal on the shared card too (P3)
                    kind,
                    self.promos.calli_params(tr),
                    coins=tr.coins,
                    complete_panoramas=st.complete_panoramas(tr),
                    cherry_trees=tr.cherry_trees,
                    legendary=len(tr.legendary),
                    souvenirs=st.nostalgia_souvenirs(tr),
                    arrival=arrival,
                    n_travelers=st.n_trav,
                    achievements=len(tr.achievements),
                    calligraphy=len(tr.calligraphy) + 1,
                    inn_meals=tr.inn_meals,
                )
                self.ctx.score(tr, "pts_calligraphy", pts, f"o-tsukimi's {self.rules.calligraphy[card]}")
            self.ctx.header = "  o-tsukimi"
            self.ctx.flush()
