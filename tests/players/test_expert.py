"""The ``expert`` player: reproducible on any number of threads, legal under
every preset (the move checker), stronger than ``random`` players, and its parameters."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from unosim.analysis.tournament import tournament
from unosim.game.rules import PRESETS
from unosim.kernel.core import layout as L
from unosim.kernel.expert.rounds import (
    DEAL_OPEN,
    PILE_LAZY,
    PILE_SHUFFLED,
    X_BLUFF,
    X_DEAL,
    X_DEPTH,
    X_HORIZON,
    X_MODEL,
    X_PILE,
    X_REUSE,
    X_ROLLOUTS,
    X_TRIES,
)
from unosim.players import strategies as strat
from unosim.players.expert import STRONG, STRONG_FAST, STRONG_FIT, TUNED, expert_array
from unosim.players.seats import parse as parse_seats
from unosim.sim import engine
from unosim.sim.match import make_match_job
from unosim.sim.simulate import make_job, run_block
from unosim.verify.checker import check_trace, strict_seats

SEED = 16
# small budgets; z=0, draw=1 and bluff=1 make the search's own choices (a voluntary draw
# and an illegal Wild Draw Four too) replace the policy's as often as possible, so the
# checker judges them
SEARCHING = "expert:rollouts=4;z=0;draw=1;bluff=1"
# the same with the strength budget's rollouts (opponents' own strategies, to the round's
# end) and inference (4 plays read per opponent)
ACTUAL = "expert:rollouts=4;z=0;draw=1;bluff=1;model=actual;horizon=0;depth=4;tries=64"


def test_same_games_on_one_and_two_threads_and_any_chunking():
    racing = "expert:rollouts=6;race=2;pad=10;more=3"
    job = make_job("official", 48, 4, f"{SEARCHING},heuristic,random,{racing}", SEED)
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = run_block(job, 0, 48, chunk=48)
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        two = run_block(job, 0, 48, chunk=5)
    finally:
        numba.set_num_threads(old)
    assert np.array_equal(one, two)
    assert np.array_equal(run_block(job, 40, 8), one[40:])  # a game is its (seed, index)


def test_the_search_changes_the_games():
    """An expert seat that never leaves its policy's move (z too high) plays exactly its
    policy's games (the search draws nothing from the game's streams); a searching one
    does not."""
    rest = ["random"] * 3
    kept = make_job("official", 64, 4, ["expert:rollouts=2;z=100"] + rest, SEED)
    policy = make_job("official", 64, 4, [TUNED] + rest, SEED)
    searching = make_job("official", 64, 4, [SEARCHING] + rest, SEED)
    base = run_block(policy, 0, 64)
    assert np.array_equal(run_block(kept, 0, 64), base)
    assert (run_block(searching, 0, 64)[:, 0] != base[:, 0]).mean() > 0.2


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_move_checker_finds_no_illegal_move(preset):
    rules = PRESETS[preset]
    n = 4
    labels = [SEARCHING, "heuristic", "random", ACTUAL]
    job = make_job(rules, 1, n, labels, SEED)
    canon = job.labels
    for game in range(12):
        out, trace = engine.trace(job.kernel, SEED, game)
        assert not check_trace(trace, rules, n, row=out, strict=strict_seats(canon)), (preset, game)
        # the traced game is the game the batch kernel plays
        assert np.array_equal(out, run_block(make_job(rules, 1, n, labels, SEED), game, 1)[0])


def _paired(me: str, deals: int) -> tuple[float, float, float, float]:
    """(win rate of ``me`` against 3 random, its standard error, gain over its policy
    ``TUNED`` on the same deals, its standard error): per-deal means over the 4 seats."""
    first = 1 << 44  # deals no other test plays
    w = np.zeros((2, deals))
    for i, who in enumerate((me, TUNED)):
        for r in range(4):
            labels = ["random"] * 4
            labels[r] = who
            rec = run_block(make_job("official", deals, 4, labels, SEED), first, deals)
            w[i] += (rec[:, 0] == r) / 4
    d = w[0] - w[1]
    return (
        w[0].mean(),
        w[0].std(ddof=1) / np.sqrt(deals),
        d.mean(),
        d.std(ddof=1) / np.sqrt(deals),
    )


def test_strength_at_a_small_budget():
    """5 sigma each. The expert plays at its policy's level or above against 3 random
    (the tuned policy wins about 0.33 of rounds; a search that picked bad moves would
    fall towards 1/4); and when it sees every hand (deal=open, a diagnostic) the same
    search finds clearly better moves than its policy (about +0.06), which shows the
    search itself works: what the fair expert lacks is information, not search."""
    rate, se, gain, gse = _paired("expert:rollouts=16", 2000)
    assert rate - 5 * se > 0.29, (rate, se)
    assert gain + 5 * gse > 0, (gain, gse)
    rate, se, gain, gse = _paired("expert:rollouts=16;deal=open", 1000)
    assert gain - 5 * gse > 0.01, (gain, gse)


def test_beats_random_players():
    """A small budget still plays well above the 1/4 of 3 random opponents: 5 sigma."""
    df = tournament("official", 4, "expert:rollouts=8,random,random,random", 2000, SEED)
    r = df.iloc[0]
    se = (r.win_hi - r.win_rate) / 1.96
    assert r.win_rate - 5 * se > 0.25, (r.win_rate, se)


def test_parameters():
    sid, sp, labels = parse_seats("expert:rollouts=8;policy=heuristic,random", 2)
    assert labels[0] == "expert:rollouts=8;policy=heuristic"
    assert sid[0] == strat.HEURISTIC
    xp = expert_array(labels)
    assert xp[0, 0] == 8 and xp[1, 0] == 0
    assert parse_seats("expert", 2)[2][0] == "expert"
    assert expert_array(["random", "heuristic"]) is None
    xp = expert_array(
        parse_seats(
            "expert:deal=open;bluff=1;policy=examples/weighted-official-random.toml,random", 2
        )[2]
    )
    assert xp[0, X_DEAL] == DEAL_OPEN and xp[0, X_BLUFF] == 1
    # the strength budget: opponents' own strategies, rollouts to the round's end,
    # 4 plays read per opponent
    xp = expert_array(parse_seats(f"{STRONG},random", 2)[2])
    assert (xp[0, X_MODEL], xp[0, X_HORIZON], xp[0, X_ROLLOUTS]) == (1, 0, 512)
    assert (xp[0, X_DEPTH], xp[0, X_TRIES]) == (4, 64)
    # its games keep the dealing they were measured with; STRONG_FAST's the unbiased one
    assert (xp[0, X_PILE], xp[0, X_REUSE]) == (PILE_SHUFFLED, 1)
    xp = expert_array(parse_seats(f"{STRONG_FAST},random", 2)[2])
    assert (xp[0, X_PILE], xp[0, X_REUSE], xp[0, X_ROLLOUTS]) == (PILE_LAZY, 4, 256)
    assert expert_array(parse_seats(f"{STRONG_FIT},random", 2)[2])[0, X_REUSE] == 1
    for bad in (
        "expert:rollouts=0",
        "expert:policy=nobody",
        "expert:depth=5",
        "expert:depth=0",
        "expert:tries=0",
        "expert:look=3",
        "expert:z=-1",
        "expert:model=psychic",
        "expert:deal=peek",
        "expert:bluff=2",
        "expert:infer=4",
        "expert:scope=some",
        "expert:more=0",
        "expert:reuse=0",
        "expert:reuse=65",
        "expert:pile=sorted",
    ):
        with pytest.raises(strat.StrategyError):
            parse_seats(bad, 2)
    with pytest.raises(ValueError, match="matches with an expert"):
        make_match_job("official", 4, 4, "expert,random,random,random")


@pytest.mark.parametrize(
    "preset, decisions",
    [
        ("official", ("turn", "penalty", "drawn")),  # challenges, keeping a card drawn
        ("stacking", ("penalty",)),
        ("progressive", ("penalty",)),
        ("seven-zero", ("target",)),
        ("draw-until-playable", ("drawn",)),
        ("copag", ("alone",)),
    ],
)
def test_every_decision_is_searched(preset, decisions):
    """The search makes choices other than its policy's at each decision the preset
    has (the move checker test above judges them legal): normal turns, penalties
    (challenge, stack or take), a legal card drawn (play it, keep it, its colour), a
    7's swap target and a card played without its extra cards (multi-card play).
    ``scope=turn`` searches normal turns only."""
    from unosim.kernel.expert.rounds import (
        AT_DRAWN,
        AT_PENALTY,
        AT_TURN,
        T_ALONE,
        T_CHANGED,
        T_TARGET,
    )

    rules = PRESETS[preset]
    where = {
        "turn": T_CHANGED + AT_TURN,
        "penalty": T_CHANGED + AT_PENALTY,
        "drawn": T_CHANGED + AT_DRAWN,
        "target": T_TARGET,
        "alone": T_ALONE,
    }
    for scope in ("all", "turn"):
        labels = [f"{SEARCHING};scope={scope}", "heuristic", "random", "random"]
        tally = engine.expert_tally(make_job(rules, 1, 4, labels, SEED).kernel, SEED, 0, 40)
        for d in decisions:
            if scope == "all" or d == "turn":
                assert tally[where[d]] > 0, (preset, d, tally)
            else:
                assert tally[where[d]] == 0, (preset, d, tally)


def test_inference_reads_each_opponent_by_its_rules():
    """``infer`` deals an opponent's hand by what its plays showed: levels 1-2 read
    heuristic opponents only (against ``random`` they change nothing), level 3 also
    random ones (against heuristics it plays as level 2)."""

    def winners(me, opponent):
        job = make_job("official", 64, 4, [me] + [opponent] * 3, SEED)
        return run_block(job, 0, 64)[:, 0]

    for opponent, changes in (("random", (False, False, True)), ("heuristic", (True, True, True))):
        off = winners("expert:rollouts=8;z=0;infer=0", opponent)
        games = {}
        for level, change in zip((1, 2, 3), changes):
            games[level] = winners(f"expert:rollouts=8;z=0;infer={level}", opponent)
            assert (not np.array_equal(games[level], off)) == change, (opponent, level)
        if opponent == "heuristic":
            assert np.array_equal(games[3], games[2])


def _remember_play(pos, q, j, card, top, size):
    """Seat ``q``'s ``j``-th last play (``MEM_PLAYED``): ``card`` on ``top`` (whose
    colour was in play), leaving it ``size`` cards."""
    from unosim.game.cards import parse_kind
    from unosim.kernel.core.kinds import COLOUR

    k, t = int(parse_kind(card)), int(parse_kind(top))
    pos.rd.memory[L.MEM_PLAYED + j * L.MAX_PLAYERS + q] = (
        k + 1 + (int(COLOUR[t]) << L.PLAYED_COLOUR) + (t << L.PLAYED_TOP) + (size << L.PLAYED_SIZE)
    )


def test_play_chance_weighs_a_random_hand_by_its_plays():
    """A ``random`` seat plays each physical legal card alike (RULES.md 10): the chance
    a dealt hand gives its last plays is the product of each card's copies over the
    legal cards of the hand it then held; 0 for a play that hand could not make
    (a Wild Draw Four while holding the colour in play); the hand is left as it was."""
    from tests.players.test_strategies import Position
    from unosim.kernel.expert.deal import _play_chance

    pos = Position({0: "G1", 1: "R3 G7"}, "Y2", "heuristic,random,random,random")
    mem = pos.rd.memory
    _remember_play(pos, 1, 0, "R5", "R1", 2)  # from R3 G7 R5 on R1: R3 or R5
    assert _play_chance(pos.tb, pos.rd, 1, mem, 1) == 0.5
    _remember_play(pos, 1, 1, "R1", "B1", 3)  # from R3 G7 R5 R1 on B1: R1 only
    assert _play_chance(pos.tb, pos.rd, 1, mem, 2) == 0.5
    _remember_play(pos, 1, 1, "R1", "R9", 3)  # on R9: any of 3 reds
    assert _play_chance(pos.tb, pos.rd, 1, mem, 2) == 0.5 / 3
    _remember_play(pos, 1, 0, "W+4", "R1", 2)  # R3 in hand: not legal (4.3)
    assert _play_chance(pos.tb, pos.rd, 1, mem, 1) == 0.0
    from unosim.game.cards import parse_kind

    assert (
        pos.game_state[L.G_TOP] == parse_kind("Y2") and pos.game_state[L.G_COLOUR] == 1
    )  # as it was
    assert pos.hands[1].sum() == pos.hand_summary[1, L.H_TOTAL] == 2
    assert pos.hands[1, parse_kind("R3")] == pos.hands[1, parse_kind("G7")] == 1


def test_a_smaller_cut_drops_more_candidates():
    """``cut`` is racing's threshold alone: ``cut=2`` (``z``'s default) plays the games
    and tally of the default (``cut=-1``: ``z``), and ``cut=0.5`` drops candidates
    sooner, so its raced searches end sooner (fewer rollout turns per search, on other
    games: the bound is loose)."""
    from unosim.kernel.expert.rounds import T_SEARCHES, T_TURNS

    def played(me):
        job = make_job(PRESETS["official"], 1, 4, [me, "random", "random", "random"], SEED)
        tally = engine.expert_tally(job.kernel, SEED, 0, 24)
        return run_block(job, 0, 24), tally[T_TURNS] / tally[T_SEARCHES]

    raced = "expert:rollouts=32;race=2"
    games, turns = played(raced)
    same, same_turns = played(raced + ";cut=2")
    assert np.array_equal(same, games) and same_turns == turns
    _, fewer = played(raced + ";cut=0.5")
    assert fewer < 0.8 * turns, (fewer, turns)


def test_more_rollouts_go_to_undecided_decisions():
    """``more=k`` plays more rollouts at some decisions (those a candidate leads the
    policy's move without beating it by ``z`` errors), never more than k x ``rollouts``
    at any: per search between 1 and k times the turns of ``more=1`` on the same games
    (the games differ once a decision does, so the bounds are loose)."""
    from unosim.kernel.expert.rounds import T_SEARCHES, T_TURNS

    rules = PRESETS["official"]

    def turns_per_search(me):
        job = make_job(rules, 1, 4, [me, "random", "random", "random"], SEED)
        tally = engine.expert_tally(job.kernel, SEED, 0, 40)
        return tally[T_TURNS] / tally[T_SEARCHES]

    one = turns_per_search("expert:rollouts=8;more=1;race=0;fut=0")
    more = turns_per_search("expert:rollouts=8;more=4;race=0;fut=0")
    assert 1.1 * one < more < 4 * one, (one, more)


@pytest.mark.parametrize("raced", ["race=0;", "race=2;"])
def test_futility_ends_extensions_sooner(raced):
    """``fut=g`` plays ``more``'s extra rollouts only for a candidate at least g% likely
    (on its trend) to beat the policy's move by then: with ``fut=50`` fewer rollout
    turns per search than with ``fut=0`` (other games: the bound is loose), whose moves
    the move checker finds legal; ``fut=0`` plays the games of before ``fut``
    (``tests/kernel/test_expert_identity.py``) and ``fut=10`` is the default."""
    from unosim.kernel.expert.rounds import T_SEARCHES, T_TURNS

    rules = PRESETS["official"]

    def labels(me):
        return [me, "heuristic", "random", "random"]

    def played(me):
        job = make_job(rules, 1, 4, labels(me), SEED)
        tally = engine.expert_tally(job.kernel, SEED, 0, 24)
        return run_block(job, 0, 24), tally[T_TURNS] / tally[T_SEARCHES]

    extended = f"expert:rollouts=8;more=8;{raced}"
    games, turns = played(extended + "fut=10")
    same, same_turns = played(extended)
    assert np.array_equal(same, games) and same_turns == turns
    _, turns = played(extended + "fut=0")
    futile = extended + "fut=50"
    _, fewer = played(futile)
    assert fewer < 0.9 * turns, (fewer, turns)
    job = make_job(rules, 1, 4, labels(futile), SEED)
    for game in range(6):
        out, trace = engine.trace(job.kernel, SEED, game)
        assert not check_trace(trace, rules, 4, row=out, strict=strict_seats(job.labels)), game


def test_reshuffle_pile_deals_the_same_cards_in_a_uniform_order():
    """``reuse``'s further determinization: the pile's cards in a new order, every order
    alike (each of 6 distinct cards in each place 1/6 of the time over 6,000 shuffles,
    within 5 sigma), the hands and the rest of the state untouched."""
    from tests.players.test_strategies import Position
    from unosim.game.cards import parse_kind
    from unosim.kernel.core.rng import seed_streams
    from unosim.kernel.expert.deal import reshuffle_pile

    pos = Position({0: "G1 R2", 1: "B3"}, "Y2", "random,random,random,random")
    rd = pos.rd
    cards = [int(parse_kind(t)) for t in "R0 R5 G7 B9 Y4 W".split()]
    rd.pile[: len(cards)] = cards
    pos.game_state[L.G_PILE_N] = len(cards)
    seed_streams(rd.streams, np.int64(SEED), np.int64(0), np.int64(0), np.int64(1))
    hands, g = rd.hands.copy(), rd.game_state.copy()
    where = np.zeros((len(cards), len(cards)), np.int64)
    for _ in range(6000):
        reshuffle_pile(rd, rd.streams)
        assert sorted(rd.pile[: len(cards)]) == sorted(cards)
        for place, k in enumerate(rd.pile[: len(cards)]):
            where[cards.index(k), place] += 1
    assert np.array_equal(rd.hands, hands) and np.array_equal(rd.game_state, g)
    p = 1 / len(cards)
    assert np.abs(where - 6000 * p).max() < 5 * np.sqrt(6000 * p * (1 - p)), where


def _same_on_two_threads_and_legal(job, games):
    """``games`` (``run_block`` of ``job``'s first 32 on this thread count) again on 2
    threads in chunks of 5, and its first 4 games' traces legal (the move checker)."""
    old = numba.get_num_threads()
    try:
        numba.set_num_threads(min(2, numba.config.NUMBA_NUM_THREADS))
        assert np.array_equal(run_block(job, 0, 32, chunk=5), games)
    finally:
        numba.set_num_threads(old)
    for game in range(4):
        out, trace = engine.trace(job.kernel, SEED, game)
        assert not check_trace(trace, job.rules, 4, row=out, strict=strict_seats(job.labels)), game


def test_reuse_deals_hands_for_several_rollouts():
    """``reuse=1`` deals the hands for every rollout; ``reuse=4`` other games, legal and the
    same on any threads and chunks, with rollouts of the same length per search (the
    budget is the same); without common random numbers (``crn=0``) it changes nothing."""
    from unosim.kernel.expert.rounds import T_SEARCHES, T_TURNS

    rules = PRESETS["official"]

    def played(me, games=32):
        job = make_job(rules, 1, 4, [me, "heuristic", "random", "random"], SEED)
        tally = engine.expert_tally(job.kernel, SEED, 0, games)
        return job, run_block(job, 0, games), tally[T_TURNS] / tally[T_SEARCHES]

    me = "expert:rollouts=8;z=0;model=actual;depth=4;tries=64"
    _, base, turns = played(me + ";reuse=1")
    assert np.array_equal(played(me)[1], played(me + ";reuse=2")[1])  # the default
    job, games, reused_turns = played(me + ";reuse=4")
    assert not np.array_equal(games, base)
    assert 0.7 * turns < reused_turns < 1.4 * turns, (turns, reused_turns)
    _same_on_two_threads_and_legal(job, games)
    unpaired = "expert:rollouts=8;z=0;crn=0"
    assert np.array_equal(played(unpaired + ";reuse=4", 16)[1], played(unpaired, 16)[1])


def test_lazy_deal_gives_each_hand_its_chances():
    """``pile=lazy`` deals the hidden hands card by card from the cards not yet dealt:
    an opponent known to lack red gets 3 of the 13 other unseen cards, each alike, and
    the next two get 2 and 4 of what is left, each alike (4,000 deals: each kind's count
    per seat within 5 sigma of its exact mean); every unseen card is dealt once and the
    known hand and the hand sizes are kept. The shuffled deal of kernel behaviour 7
    (``pile=shuffled``) gives the first opponent the same chances but left the red cards
    it skipped just after its hand, so the next one got about twice its share of them."""
    from collections import Counter

    from tests.players.test_strategies import Position
    from unosim.game.cards import parse_kind
    from unosim.kernel.core.kinds import COLOUR
    from unosim.kernel.core.rng import seed_streams
    from unosim.kernel.expert.deal import determinize
    from unosim.kernel.expert.rounds import DEAL_VOIDS
    from unosim.kernel.expert.search import search_arrays

    hands = {0: "G1 B2", 1: "R3 G7 Y9", 2: "B5 W", 3: "R1 R2 G4 Y0"}
    pos = Position(hands, "Y2", "random,random,random,random")
    rd = pos.rd
    pile = [int(parse_kind(t)) for t in "R0 R5 R7 G2 G3 B9 Y4 Y6 W+4 B1".split()]
    rd.pile[: len(pile)] = pile
    pos.game_state[L.G_PILE_N] = len(pile)
    red = int(COLOUR[parse_kind("R3")])
    rd.memory[L.MEM_SHORT + 1] = 1 << red
    unseen_cards = Counter(pile)
    for q in (1, 2, 3):
        for k in np.flatnonzero(rd.hands[q]):
            unseen_cards[int(k)] += int(rd.hands[q, k])
    kinds = sorted(unseen_cards)
    total = sum(unseen_cards.values())  # 19, 6 of them red
    others = sum(c for k, c in unseen_cards.items() if COLOUR[k] != red)
    b, _, _, unseen = search_arrays(pos.tb, np.int64(rd.pile.shape[0]))[:4]
    st = np.zeros((L.N_STREAMS, 4), np.uint64)
    deals = 4000
    for lazy in (1, 0):
        seed_streams(st, np.int64(SEED), np.int64(lazy), np.int64(0), np.int64(1))
        counts = np.zeros((4, len(kinds)), np.int64)
        for _ in range(deals):
            determinize(pos.tb, rd, 0, b, unseen, st, 0, DEAL_VOIDS, 0, 1, 1, lazy)
            assert np.array_equal(b.hands[0], rd.hands[0])
            assert np.array_equal(b.hand_summary[:4, L.H_TOTAL], rd.hand_summary[:4, L.H_TOTAL])
            dealt = Counter(int(k) for k in b.pile[: b.game_state[L.G_PILE_N]])
            for q in (1, 2, 3):
                for i, k in enumerate(kinds):
                    counts[q, i] += b.hands[q, k]
                    dealt[k] += int(b.hands[q, k])
            assert dealt == unseen_cards
        for i, k in enumerate(kinds):
            c = unseen_cards[k]
            left = c * (1 - 3 / others) if COLOUR[k] != red else c  # after the first
            means = {
                1: 3 * c / others if COLOUR[k] != red else 0.0,
                2: left * 2 / (total - 3),
                3: left * (1 - 2 / (total - 3)) * 4 / (total - 5),
            }
            for q in (1, 2, 3) if lazy else (1,):
                mu = means[q]
                sd = np.sqrt(deals * mu * (c - mu)) + 1e-9  # a count in 0..c with mean mu
                assert abs(counts[q, i] - deals * mu) <= 5 * sd, (lazy, q, k, counts[q, i], mu)


def test_lazy_pile_plays_legal_games_the_same_on_any_threads():
    """``pile=lazy`` (the default) plays other games than the shuffled pile (other draws
    from the streams), legal and the same on any threads and chunks, with and without
    ``reuse``."""
    rules = PRESETS["official"]
    me = "expert:rollouts=8;z=0;model=actual;depth=4;tries=64"

    def played(seat, games=32):
        job = make_job(rules, 1, 4, [seat, "heuristic", "random", "random"], SEED)
        return job, run_block(job, 0, games)

    for extra in ("", ";reuse=4"):
        _, shuffled = played(me + extra + ";pile=shuffled")
        job, games = played(me + extra + ";pile=lazy")
        assert not np.array_equal(games, shuffled)
        assert np.array_equal(played(me + extra)[1], games)
        _same_on_two_threads_and_legal(job, games)
