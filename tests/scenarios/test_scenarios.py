"""Hand-traced scenario tests of the numba kernel against RULES.md.

Every test deals a chosen round with ``tests.helpers.scripted`` and checks the exact
RULES.md section 6 row. Hands are built so that every decision of the ``random``
strategy is forced (one legal card, or identical/equivalent choices), and so that the
colour named after a wild does not change what is asserted; each scenario is played
with several seeds and must give the same row every time. Where a colour has to be
known, the seat that names it plays ``heuristic`` holding a single colour (it names the
colour it holds most, strategies.py rule 4).

Notation in the traces: ``T3 s1`` is the 3rd turn taken, by seat 1; ``ok``/``no`` after
a card says whether it is legal on the current top card (4.1).
"""

from __future__ import annotations

import pytest

from tests.helpers import scripted
from unosim.game.cards import COLOUR, parse_kind
from unosim.kernel.core import layout as L

SEEDS = range(8)


def run(hands, first, draw="", seeds=SEEDS, **kw):
    """The same scripted deal played with every seed in ``seeds``."""
    return [scripted(hands, first, draw, seed=s, **kw) for s in seeds]


def check(outs, hand_sizes=None, hand_points=None, **expected):
    """Every outcome has exactly the expected row values (and per-seat columns)."""
    for i, o in enumerate(outs):
        row = o.row
        got = {k: (bool(row[k]) if k == "truncated" else int(row[k])) for k in expected}
        assert got == expected, f"outcome {i}: {got} != {expected}"
        if hand_sizes is not None:
            sizes = tuple(int(row[f"hand_size_{s}"]) for s in range(len(hand_sizes)))
            assert sizes == tuple(hand_sizes), f"outcome {i}: hand sizes {sizes}"
        if hand_points is not None:
            pts = tuple(int(row[f"hand_points_{s}"]) for s in range(len(hand_points)))
            assert pts == tuple(hand_points), f"outcome {i}: hand points {pts}"
    return outs


def won(winner, **kw):
    return dict(winner=winner, truncated=False, **kw)


def names(text):
    return sorted(text.split())


# ======================================================================================
# Section 3: the first card turned
# ======================================================================================


def test_first_card_number_seat0_plays_first():
    # first R3 is a number: seat 0 plays first.
    # T1 s0: R5 ok (red) -> last card, wins.
    # points = G9 9 + B+2 20 + W 50 = 79
    outs = run(["R5", "G9", "B+2", "W"], "R3")
    check(
        outs,
        **won(
            0,
            first_player=0,
            turns=1,
            cards_played=1,
            cards_drawn=0,
            reshuffles=0,
            points=79,
            max_stack=0,
        ),
        hand_sizes=(0, 1, 1, 1),
        hand_points=(0, 9, 20, 50),
    )


def test_first_card_skip_seat1_plays_first():
    # first RS: seat 0 (who would win with R7) is skipped; seat 1 plays first.
    # T1 s1: R5 ok -> wins. points = R7 7 + G1 1 + B2 2 = 10
    outs = run(["R7", "R5", "G1", "B2"], "RS")
    check(
        outs,
        **won(1, first_player=1, turns=1, cards_played=1, cards_drawn=0, points=10, max_stack=0),
        hand_sizes=(1, 0, 1, 1),
    )


def test_first_card_reverse_four_players_dealer_first_counter_clockwise():
    # first RR, 4 players: direction becomes counter-clockwise, dealer seat 3 first.
    # T1 s3: G5 no (red / R) -> draws B6 no -> turn ends (2 cards)
    # T2 s2 (counter-clockwise after 3; clockwise it would be seat 0 winning with R7):
    #        R9 ok -> wins.
    # points = R7 7 + R8 8 + (G5 5 + B6 6) = 26
    outs = run(["R7", "R8", "R9", "G5"], "RR", "B6")
    check(
        outs,
        **won(2, first_player=3, turns=2, cards_played=1, cards_drawn=1, reshuffles=0, points=26),
        hand_sizes=(1, 1, 0, 2),
    )


def test_first_card_reverse_two_players_acts_as_skip():
    # first RR, 2 players: acts as Skip, so the dealer (seat 1) plays first.
    # T1 s1: R5 ok -> wins. points = R7 7
    outs = run(["R7", "R5"], "RR")
    check(outs, **won(1, first_player=1, turns=1, cards_played=1, points=7))


def test_first_card_draw_two():
    # first R+2: seat 0 draws 2 at once (B3, B4) and is skipped; seat 1 plays first.
    # T1 s1: R5 ok -> wins.
    # points = s0 (R7 7 + B3 3 + B4 4) + s2 G1 1 = 15; max_stack = the setup 2
    outs = run(["R7", "R5", "G1"], "R+2", "B3 B4")
    check(
        outs,
        **won(1, first_player=1, turns=1, cards_played=1, cards_drawn=2, points=15, max_stack=2),
        hand_sizes=(3, 0, 1),
        hand_points=(14, 0, 1),
    )


def test_first_card_draw_two_cannot_be_stacked_or_jumped():
    # first R+2 under stacking=same and jump_in: applied at once during setup.
    # Seat 0 holds R+2 but cannot stack it: draws B3 B4 (3 cards) and is skipped.
    # Nobody jumps in on the setup card (seat 0 holds an identical R+2).
    # T1 s1: R5 ok -> wins. points = s0 (R+2 20 + 3 + 4) + s2 G1 1 = 28
    outs = run(["R+2", "R5", "G1"], "R+2", "B3 B4", stacking="same", jump_in=True)
    check(
        outs,
        **won(1, first_player=1, turns=1, cards_played=1, cards_drawn=2, points=28, max_stack=2),
        hand_sizes=(3, 0, 1),
    )


def test_first_card_wild_seat0_names_and_plays():
    # first W: seat 0 names a colour (random) and plays first.
    # T1 s0: W ok whatever the colour -> wins. points = R5 5
    outs = run(["W", "R5"], "W")
    check(
        outs,
        **won(0, first_player=0, turns=1, cards_played=1, cards_drawn=0, points=5, max_stack=0),
    )


def test_first_card_wild_draw_four_put_back_next_card_turned():
    # first W+4 goes back into the draw pile (R3 G4 B6) at a uniformly random place
    # and the next card is turned; a W+4 put back on top is turned again and put
    # back again, so the card turned is always R3 and the W+4 ends among G4 B6.
    # T1 s0: R5 ok on R3 -> wins. points = G9 9. Nobody draws (cards_drawn 0).
    outs = run(["R5", "G9"], "W+4", "R3 G4 B6", seeds=range(24))
    check(
        outs,
        **won(
            0,
            first_player=0,
            turns=1,
            cards_played=1,
            cards_drawn=0,
            points=9,
            max_stack=0,
            challenges=0,
        ),
    )
    w4, r3, r5 = parse_kind("W+4"), parse_kind("R3"), parse_kind("R5")
    positions = set()
    for o in outs:
        assert sorted(int(k) for k in o.pile) == sorted([w4, parse_kind("G4"), parse_kind("B6")])
        assert int(o.disc[r3]) == 1 and int(o.disc[r5]) == 1
        assert int(o.disc[w4]) == 0 and int(o.disc.sum()) == 2
        positions.add(list(o.pile).index(w4))
    assert len(positions) > 1  # the position is random, not fixed


@pytest.mark.parametrize(
    "first, rules, extra",
    [
        ("WSH", "official-2018", {}),
        ("WC", "official-2018", {"blank_card": "swap_hands"}),
        ("SNX", "pokemon", {}),
        ("GRN", "pokemon", {}),
        ("PoG", "motu", {}),
    ],
)
def test_first_card_special_wild_has_no_effect(first, rules, extra):
    # A special wild turned first: seat 0 names the colour and plays; its effect
    # (shuffle hands / swap hands / Snorlax draw 3 / Greninja draw / Grayskull: every
    # other player draws 3) is NOT applied at setup.
    # T1 s0: W ok -> wins. Nobody drew; seat 1 still holds R9 only.
    outs = run(["W", "R9"], first, "B1 B2 B3 B4 B5 B6", rules=rules, **extra)
    check(
        outs,
        **won(0, first_player=0, turns=1, cards_played=1, cards_drawn=0, reshuffles=0, points=9),
        hand_sizes=(0, 1),
    )
    for o in outs:
        assert o.hand(1) == ["R9"]


# ======================================================================================
# Section 4: action cards during play, drawing, reshuffles, 2 players, scoring
# ======================================================================================


def test_skip_during_play():
    # first R9.
    # T1 s0: RS ok, B4 no -> plays RS (1 left). Seat 1 is skipped.
    # T2 s2: R4 ok, B7 no -> plays R4.
    # T3 s0: B4 ok on R4 (rank) -> wins.
    # (Had seat 1 not been skipped it would have played R2.)
    # points = s1 R2 2 + Y2 2 + s2 B7 7 = 11
    outs = run(["RS B4", "R2 Y2", "R4 B7"], "R9")
    check(
        outs,
        **won(0, first_player=0, turns=3, cards_played=3, cards_drawn=0, points=11),
        hand_sizes=(0, 2, 1),
    )


def test_reverse_during_play_three_players():
    # first R9.
    # T1 s0: RR ok, G3 no -> plays RR: direction now counter-clockwise.
    # T2 s2 (next counter-clockwise): R3 ok, Y8 no -> plays R3.
    # T3 s1: YR no, Y2 no on R3 -> draws B6 no -> turn ends (3 cards).
    #        (Clockwise, seat 1 would have played YR on RR at T2.)
    # T4 s0: G3 ok on R3 (rank) -> wins.
    # points = s1 (YR 20 + Y2 2 + B6 6) + s2 Y8 8 = 36
    outs = run(["RR G3", "YR Y2", "R3 Y8"], "R9", "B6")
    check(
        outs,
        **won(0, first_player=0, turns=4, cards_played=3, cards_drawn=1, points=36),
        hand_sizes=(0, 3, 1),
        hand_points=(0, 28, 8),
    )


def test_draw_two_during_play():
    # first R9.
    # T1 s0: R+2 ok, B4 no -> plays R+2: seat 1 draws Y3 Y5 (4 cards), loses its turn.
    # T2 s2: R4 ok, G8 no -> plays R4.
    # T3 s0: B4 ok (rank 4) -> wins.
    # points = s1 (1 + 2 + 3 + 5) + s2 G8 8 = 19
    outs = run(["R+2 B4", "Y1 Y2", "R4 G8"], "R9", "Y3 Y5")
    check(
        outs,
        **won(0, first_player=0, turns=3, cards_played=3, cards_drawn=2, points=19, max_stack=2),
        hand_sizes=(0, 4, 1),
    )


def test_wild_during_play_named_colour_governs():
    # first G5, 2 players.
    # T1 s0: W ok, R3 no (red 3 on green 5) -> plays W, names colour c (random).
    # T2 s1: exactly one of R3 Y3 G3 B3 has colour c (a wild top has no rank) -> plays c3.
    # T3 s0: R3 ok (rank 3; the three R3 are identical) -> 2 left.
    # T4 s1: any of its three 3s is ok (rank 3) -> 2 left.
    # T5 s0: R3 -> 1 left (UNO). T6 s1: a 3 -> 1 left. T7 s0: R3 -> wins.
    # points = the 3 seat 1 still holds = 3
    outs = run(["W R3 R3 R3", "R3 Y3 G3 B3"], "G5", seeds=range(16))
    check(
        outs,
        **won(0, first_player=0, turns=7, cards_played=7, cards_drawn=0, points=3),
        hand_sizes=(0, 1),
        hand_points=(0, 3),
    )


def test_wild_draw_four_during_play_four_players():
    # first G5; seat 0 holds no green, so Wild Draw Four is legal.
    # T1 s0: W+4 (both cards identical) -> names c; seat 1 draws B1-B4, loses its turn.
    # T2 s2: W -> names c'. T3 s3: W -> names c''.
    # T4 s0: W+4 legal (seat 0 holds no coloured card) -> last card: seat 1 draws B5-B8.
    # points = s1 (G1 1 + G2 2 + 1+...+8 = 36) + s2 W 50 + s3 W 50 = 139
    outs = run(["W+4 W+4", "G1 G2", "W W", "W W"], "G5", "B1 B2 B3 B4 B5 B6 B7 B8")
    check(
        outs,
        **won(
            0,
            first_player=0,
            turns=4,
            cards_played=4,
            cards_drawn=8,
            points=139,
            max_stack=4,
            challenges=0,
            bluffs=0,
        ),
        hand_sizes=(0, 10, 1, 1),
        hand_points=(0, 39, 50, 50),
    )


def test_wild_draw_four_restricted_while_holding_current_colour():
    # first G5; seat 0 holds G1, so its W+4 is illegal (4.3) and `random` never bluffs.
    # T1 s0: G1 ok, W+4 not allowed -> plays G1.
    # T2 s1: Y1 ok (rank 1), Y2 no -> plays Y1, colour yellow.
    # T3 s0: W+4 now legal (no yellow held) -> last card: seat 1 draws 4:
    #        Y3, then the draw pile is empty: reshuffle the discard minus its top
    #        (G5 G1 Y1) and draw those 3.
    # points = s1 Y2 2 + Y3 3 + G5 5 + G1 1 + Y1 1 = 12
    outs = run(["W+4 G1", "Y1 Y2"], "G5", "Y3")
    check(
        outs,
        **won(
            0,
            first_player=0,
            turns=3,
            cards_played=3,
            cards_drawn=4,
            reshuffles=1,
            points=12,
            max_stack=4,
            bluffs=0,
        ),
        hand_sizes=(0, 5),
    )


def test_two_players_action_cards_let_the_same_player_play_again():
    # 4.5, 2 players: after Skip, Reverse (= Skip), Draw Two the same player plays again.
    # first R9.
    # T1 s0: RS (only red card) -> seat 1 skipped.
    # T2 s0: YS (symbol S) -> skipped. T3 s0: YR (yellow) -> acts as Skip.
    # T4 s0: BR (symbol R) -> Skip. T5 s0: B+2 (blue) -> seat 1 draws Y1 Y2, skipped.
    # T6 s0: G+2 (symbol +2) -> last card: seat 1 draws Y3 Y4 before scoring (section 5).
    # points = s1 (1+...+6 = 21) + (1+2+3+4 = 10) = 31
    outs = run(["RS YS YR BR B+2 G+2", "R1 R2 R3 R4 R5 R6"], "R9", "Y1 Y2 Y3 Y4")
    check(
        outs,
        **won(0, first_player=0, turns=6, cards_played=6, cards_drawn=4, points=31, max_stack=2),
        hand_sizes=(0, 10),
    )


def test_two_players_wild_draw_four_plays_again():
    # 2 players, first G5, seat 0 holds no green.
    # T1 s0: W+4 -> seat 1 draws B1-B4, loses its turn.
    # T2 s0: W+4 (last card) -> seat 1 draws B5-B8.
    # points = G1 + G2 + (1+...+8) = 39
    outs = run(["W+4 W+4", "G1 G2"], "G5", "B1 B2 B3 B4 B5 B6 B7 B8")
    check(
        outs,
        **won(0, first_player=0, turns=2, cards_played=2, cards_drawn=8, points=39, max_stack=4),
        hand_sizes=(0, 10),
    )


def test_draw_playable_card_and_play_it():
    # first R5. T1 s0: G1 no -> draws R9 ok -> plays it (1 card left).
    # T2 s1: B9 ok on R9 (rank) -> wins. points = G1 1
    outs = run(["G1", "B9"], "R5", "R9")
    check(
        outs,
        **won(1, first_player=0, turns=2, cards_played=2, cards_drawn=1, points=1),
        hand_sizes=(1, 0),
    )


def test_draw_unplayable_card_turn_ends():
    # first R5. T1 s0: G1 no -> draws G9 no (green 9 on red 5) -> turn ends.
    # T2 s1: R2 ok -> wins. points = G1 1 + G9 9 = 10
    outs = run(["G1", "R2"], "R5", "G9")
    check(
        outs,
        **won(1, first_player=0, turns=2, cards_played=1, cards_drawn=1, points=10),
        hand_sizes=(2, 0),
    )


def test_reshuffle_discard_minus_top_becomes_draw_pile():
    # first R5, empty draw pile, 3 players.
    # T1 s0: R7 ok, G1 no -> plays R7. Discard: R5, R7 (top).
    # T2 s1: Y2 no, B3 no -> draw pile empty: R5 (discard minus top R7) becomes the
    #        draw pile (reshuffles 1); draws R5 ok (red) -> plays it.
    # T3 s2: G5 ok (rank 5), Y9 no -> plays G5.
    # T4 s0: G1 ok (green) -> wins.
    # points = s1 (Y2 2 + B3 3) + s2 Y9 9 = 14
    outs = run(["R7 G1", "Y2 B3", "G5 Y9"], "R5")
    check(
        outs,
        **won(0, first_player=0, turns=4, cards_played=4, cards_drawn=1, reshuffles=1, points=14),
        hand_sizes=(0, 2, 1),
    )


def test_nothing_to_draw_no_reshuffle():
    # first R5, empty draw pile, the discard holds only its top card.
    # T1 s0: G2 no -> nothing exists to draw: no card, no reshuffle, the turn ends.
    # T2 s1: R1 ok -> wins. points = G2 2
    outs = run(["G2", "R1"], "R5")
    check(
        outs,
        **won(1, first_player=0, turns=2, cards_played=1, cards_drawn=0, reshuffles=0, points=2),
        hand_sizes=(1, 0),
    )


def test_last_card_draw_two_counted_in_score_after_reshuffle():
    # first R5, empty draw pile, 2 players.
    # T1 s0: G5 ok (rank), Y+2 no -> plays G5.
    # T2 s1: Y5 ok (rank), Y1 no -> plays Y5.
    # T3 s0: Y+2 ok (yellow) -> last card. Section 5: seat 1 first draws the 2:
    #        draw pile empty -> discard minus top (R5 G5 Y5) reshuffled (3 cards);
    #        seat 1 draws 2 of them, 5 points each; 1 stays in the draw pile.
    # points = Y1 1 + 5 + 5 = 11
    outs = run(["G5 Y+2", "Y5 Y1"], "R5")
    check(
        outs,
        **won(
            0,
            first_player=0,
            turns=3,
            cards_played=3,
            cards_drawn=2,
            reshuffles=1,
            points=11,
            max_stack=2,
        ),
        hand_sizes=(0, 3),
        hand_points=(0, 11),
    )
    for o in outs:
        assert len(o.pile) == 1


def test_max_turns_truncation():
    # first R3, draw B7 B8, max_turns 10.
    # T1 s0: R1 ok (G5 no). T2 s1: R2 ok (G6 no).
    # T3 s0: draws B7 no. T4 s1: draws B8 no.
    # T5 s0: draw pile empty -> reshuffle {R3, R1} (1); draws a red card ok -> plays it.
    # T6 s1: draws the other red card ok -> plays it.
    # T7, T9: reshuffle again (the 2 cards under the top), draw a red card and play it;
    # T8, T10 likewise without a reshuffle. Before T11 the limit stops the round.
    # played = 2 + 6 (T5-T10) = 8; drawn = 2 + 6 = 8; reshuffles at T5, T7, T9 = 3
    outs = run(["R1 G5", "R2 G6"], "R3", "B7 B8", max_turns=10)
    check(
        outs,
        winner=-1,
        truncated=True,
        points=0,
        first_player=0,
        turns=10,
        cards_played=8,
        cards_drawn=8,
        reshuffles=3,
        hand_sizes=(2, 2),
        hand_points=(12, 14),
    )


# ======================================================================================
# Section 8: house rules
# ======================================================================================


def test_stacking_draw_two_chain_ends_in_draw_of_six():
    # stacking=same, 4 players, first R5.
    # T1 s0: R+2 ok, B1 no -> pending 2.
    # T2 s1: stacks G+2 (its only +2) -> pending 4.
    # T3 s2: stacks B+2 -> pending 6.
    # s3: no +2 -> draws 6 (G1 G2 G3 G4 G6 G7), loses its turn (no turn counted).
    # T4 s0: B1 ok on B+2 (blue) -> wins.
    # points = s1 Y2 2 + s2 Y3 3 + s3 (Y4 4 + Y6 6 + 23) = 38
    outs = run(["R+2 B1", "G+2 Y2", "B+2 Y3", "Y4 Y6"], "R5", "G1 G2 G3 G4 G6 G7", stacking="same")
    check(
        outs,
        **won(0, first_player=0, turns=4, cards_played=4, cards_drawn=6, points=38, max_stack=6),
        hand_sizes=(0, 1, 1, 8),
        hand_points=(0, 2, 3, 33),
    )


def test_progressive_wild_draw_four_on_draw_two():
    # stacking=progressive, 2 players, first R5. Seat 0 would challenge any
    # challengeable Wild Draw Four.
    # T1 s0: R+2 ok, Y1 no -> pending 2.
    # T2 s1: W+4 stacks on the +2 (its only stackable card) -> pending 6, colour c.
    # s0: a stacked W+4 cannot be challenged; Y1 is not stackable -> draws 6, skipped.
    # T3 s1: W -> wins.
    # points = s0 Y1 1 + (1+2+3+4+6+7 = 23) = 24
    outs = run(
        ["R+2 Y1", "W+4 W"],
        "R5",
        "G1 G2 G3 G4 G6 G7",
        stacking="progressive",
        strategies="random:challenge=1,random",
    )
    check(
        outs,
        **won(
            1,
            first_player=0,
            turns=3,
            cards_played=3,
            cards_drawn=6,
            points=24,
            max_stack=6,
            challenges=0,
        ),
        hand_sizes=(7, 0),
    )


def test_progressive_stacked_wild_draw_four_exempt_from_restriction():
    # As above, but seat 1 also holds R9 of the current colour (red): a stacked W+4 is
    # exempt from wd4_restriction (8.1). max_turns 2 stops after the penalty.
    # T1 s0: R+2. T2 s1: W+4 stacked -> pending 6. s0 draws 6. Limit before T3.
    outs = run(
        ["R+2 Y1", "W+4 R9"],
        "R5",
        "G1 G2 G3 G4 G6 G7",
        stacking="progressive",
        strategies="random:challenge=1,random",
        max_turns=2,
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        turns=2,
        cards_played=2,
        cards_drawn=6,
        max_stack=6,
        challenges=0,
        bluffs=0,
        hand_sizes=(7, 1),
    )


def test_same_refuses_wild_draw_four_on_draw_two():
    # stacking=same, 2 players, first R5.
    # T1 s0: R+2 ok, B+2 no -> pending 2.
    # s1: W+4 may not go on a +2 under `same` -> draws G1 G2, loses its turn.
    # T2 s0: B+2 ok (symbol) -> last card: seat 1 draws G3 G4.
    # points = W+4 50 + Y9 9 + (1+2+3+4) = 69
    outs = run(["R+2 B+2", "W+4 Y9"], "R5", "G1 G2 G3 G4", stacking="same")
    check(
        outs,
        **won(0, first_player=0, turns=2, cards_played=2, cards_drawn=4, points=69, max_stack=2),
        hand_sizes=(0, 6),
    )


def test_stacked_last_card_penalty_counted_in_score():
    # stacking=same, 2 players, first R5.
    # T1 s0: R+2 ok, Y+2 no -> pending 2.
    # T2 s1: stacks G+2 or B+2 (both alike) -> pending 4.
    # T3 s0: stacks Y+2, its last card -> pending 6; seat 0 wins and seat 1 first draws
    #        the whole 6 (section 5: "or a stacked penalty").
    # points = s1's other +2 20 + (1+...+6 = 21) = 41
    outs = run(["R+2 Y+2", "G+2 B+2"], "R5", "G1 G2 G3 G4 G5 G6", stacking="same")
    check(
        outs,
        **won(0, first_player=0, turns=3, cards_played=3, cards_drawn=6, points=41, max_stack=6),
        hand_sizes=(0, 7),
    )


def test_progressive_same_colour_draw_two_on_wild_draw_four():
    # stacking=progressive, 2 players, first G5; seat 0 holds no green.
    # T1 s0: W+4 (Y1 Y2 Y3 no on G5) -> names c, pending 4.
    # T2 s1: holds a +2 of every colour; only the one of colour c is stackable on the
    #        +4 -> stacks c+2, pending 6.
    # s0: nothing stackable -> draws 6, loses its turn.
    # T3 s1: one of its three other +2s (all legal by symbol, all alike) -> pending 2.
    # s0: draws 2. T4 s1: another +2 -> s0 draws 2.
    # T5 s1: last +2 -> wins; s0 draws 2 first (section 5). Seat 0 drew 6+2+2+2 = 12.
    # points = Y1+Y2+Y3 6 + (R1..R9 45 + G1 G2 G3 6) = 57
    draw = "R1 R2 R3 R4 R5 R6 R7 R8 R9 G1 G2 G3"
    outs = run(
        ["W+4 Y1 Y2 Y3", "R+2 Y+2 G+2 B+2"], "G5", draw, stacking="progressive", seeds=range(16)
    )
    check(
        outs,
        **won(1, first_player=0, turns=5, cards_played=5, cards_drawn=12, points=57, max_stack=6),
        hand_sizes=(15, 0),
    )


def test_same_refuses_draw_two_on_wild_draw_four():
    # stacking=same, 2 players, first G5. Seat 1 holds a +2 of every colour, so always
    # one of the colour just named, but `same` allows only +4 on +4.
    # T1-T4 s0: W+4 each time (it holds no coloured card, so each is legal);
    # after each, seat 1 draws 4 and loses its turn; the 4th is the last card.
    # points = 4 x 20 + (R1..R9 45 + Y1..Y7 28) = 153
    draw = "R1 R2 R3 R4 R5 R6 R7 R8 R9 Y1 Y2 Y3 Y4 Y5 Y6 Y7"
    outs = run(["W+4 W+4 W+4 W+4", "R+2 Y+2 G+2 B+2"], "G5", draw, stacking="same", seeds=range(16))
    check(
        outs,
        **won(0, first_player=0, turns=4, cards_played=4, cards_drawn=16, points=153, max_stack=4),
        hand_sizes=(0, 20),
    )


def test_seven_swaps_hands():
    # seven_zero, 2 players, first R5.
    # T1 s0: R7 ok, G1 no -> plays R7 and swaps with seat 1: s0 {R3 B3}, s1 {G1}.
    # T2 s1: G1 no on R7 -> draws G9 no -> {G1 G9}.
    # T3 s0: R3 ok, B3 no -> plays R3.
    # T4 s1: G1 G9 no on R3 -> draws Y8 no.
    # T5 s0: B3 ok (rank 3) -> wins.
    # points = G1 1 + G9 9 + Y8 8 = 18
    outs = run(["R7 G1", "R3 B3"], "R5", "G9 Y8", seven_zero=True)
    check(
        outs,
        **won(0, first_player=0, turns=5, cards_played=3, cards_drawn=2, points=18),
        hand_sizes=(0, 3),
    )
    for o in outs:
        assert o.hand(1) == names("G1 G9 Y8")


def test_seven_as_last_card_no_swap():
    # seven_zero: T1 s0 plays its last card R7 -> the round ends first, no swap.
    outs = run(["R7", "G1"], "R5", seven_zero=True)
    check(outs, **won(0, turns=1, cards_played=1, points=1), hand_sizes=(0, 1))


def test_zero_as_last_card_no_rotation():
    # seven_zero: T1 s0 plays its last card R0 -> the round ends first, no rotation.
    outs = run(["R0", "G1", "Y2"], "R5", seven_zero=True)
    check(outs, **won(0, turns=1, cards_played=1, points=3), hand_sizes=(0, 1, 1))
    for o in outs:
        assert (o.hand(1), o.hand(2)) == (["G1"], ["Y2"])


def test_zero_rotates_hands_clockwise():
    # seven_zero, 3 players, first R5, direction clockwise; max_turns 1.
    # T1 s0: R0 ok, B9 no -> plays R0: every hand passes to the next seat (0->1->2->0):
    #        s1 gets {B9}, s2 gets {G1 G2}, s0 gets {Y3 Y4}.
    outs = run(["R0 B9", "G1 G2", "Y3 Y4"], "R5", seven_zero=True, max_turns=1)
    check(outs, winner=-1, truncated=True, turns=1, cards_played=1, hand_sizes=(2, 1, 2))
    for o in outs:
        assert (o.hand(0), o.hand(1), o.hand(2)) == (names("Y3 Y4"), names("B9"), names("G1 G2"))


def test_zero_rotates_hands_counter_clockwise():
    # seven_zero, 3 players, first RR: counter-clockwise, dealer seat 2 first; max_turns 1.
    # T1 s2: R0 ok (red), B9 no -> plays R0: hands pass counter-clockwise (2->1->0->2):
    #        s1 gets {B9}, s0 gets {Y3 Y4}, s2 gets {G1 G2}.
    outs = run(["G1 G2", "Y3 Y4", "R0 B9"], "RR", seven_zero=True, max_turns=1)
    check(
        outs,
        winner=-1,
        truncated=True,
        first_player=2,
        turns=1,
        cards_played=1,
        hand_sizes=(2, 1, 2),
    )
    for o in outs:
        assert (o.hand(0), o.hand(1), o.hand(2)) == (names("Y3 Y4"), names("B9"), names("G1 G2"))


def test_jump_in_chain_follows_direction_of_play():
    # jump_in, 4 players, first R5.
    # T1 s0: R6 ok, B6 no -> plays R6.
    # Jump-ins, first holder after the player in the direction of play:
    # T2 s1 jumps in with R6 (seat 1 comes before seat 3).
    # T3 s3 jumps in with R6 (after seat 1: seat 2 has none, seat 3 has one).
    # Nobody else holds R6; the next player is the one after the jumper: seat 0.
    # T4 s0: B6 ok (rank 6) -> wins.
    # points = s1 Y2 2 + s2 (G9 9 + B9 9) + s3 G8 8 = 28
    outs = run(["R6 B6", "R6 Y2", "G9 B9", "R6 G8"], "R5", jump_in=True)
    check(
        outs,
        **won(0, first_player=0, turns=4, cards_played=4, cards_drawn=0, points=28),
        hand_sizes=(0, 1, 2, 1),
    )


def test_jump_in_counts_against_max_turns():
    # The same deal with max_turns 2: T1 s0 R6, T2 s1 jumps in; seat 3's jump-in would
    # be turn 3, so the limit (checked before every turn, jump-ins included) ends it.
    outs = run(["R6 B6", "R6 Y2", "G9 B9", "R6 G8"], "R5", jump_in=True, max_turns=2)
    check(
        outs, winner=-1, truncated=True, points=0, turns=2, cards_played=2, hand_sizes=(1, 1, 2, 2)
    )


def test_jump_in_draw_two_passes_four_to_player_after_jumper():
    # jump_in, 4 players, first R5.
    # T1 s0: R+2 ok, B+2 no -> pending 2.
    # T2 s2 jumps in with R+2 (seat 1 has none) -> the penalty stays and grows: 4.
    # Seat 3, the player after the jumper, draws 4 (Y1-Y4) and loses its turn.
    # T3 s0: B+2 ok (symbol) -> last card: seat 1 draws Y5 Y6 first.
    # points = s1 (1+2+5+6 = 14) + s2 B3 3 + s3 (3+4+1+2+3+4 = 17) = 34
    outs = run(["R+2 B+2", "G1 G2", "R+2 B3", "G3 G4"], "R5", "Y1 Y2 Y3 Y4 Y5 Y6", jump_in=True)
    check(
        outs,
        **won(0, first_player=0, turns=3, cards_played=3, cards_drawn=6, points=34, max_stack=4),
        hand_sizes=(0, 4, 1, 6),
        hand_points=(0, 14, 3, 17),
    )


def test_jump_in_skip_replaces_pending_skip():
    # jump_in, 4 players, first R5, draw B7 B8; max_turns 3.
    # T1 s0: RS ok, B1 no -> pending skip on seat 1.
    # T2 s3 jumps in with RS (seats 1 and 2 hold none): seat 0's pending skip is
    #    dropped and replaced by the jumper's own: the player after seat 3, seat 0,
    #    is skipped.
    # T3 s1: R1 ok on RS (red), G2 no -> plays R1. Limit.
    # (Without the drop both skips would hit seats 0 and 1 and seat 2 would draw at
    # T3; without jump-in seat 1 is skipped and seat 2 draws at T2.)
    outs = run(["RS B1", "R1 G2", "Y1 Y2", "RS G9"], "R5", "B7 B8", jump_in=True, max_turns=3)
    check(
        outs,
        winner=-1,
        truncated=True,
        first_player=0,
        turns=3,
        cards_played=3,
        cards_drawn=0,
        hand_sizes=(1, 1, 2, 1),
    )
    for o in outs:
        assert o.top == "R1"


def test_jump_in_reverse_flips_direction_again():
    # jump_in, 4 players, first R5.
    # T1 s0: RR ok, B3 no -> direction counter-clockwise.
    # Jump-in search in the current direction from seat 0: seat 3 (none), seat 2 (RR):
    # T2 s2 jumps in with RR -> the direction flips again (clockwise); the next player
    #    is the one after the jumper: seat 3.
    # T3 s3: R3 ok, G4 no -> plays R3.
    # T4 s0: B3 ok (rank 3) -> wins.
    # points = s1 (1+2) + s2 Y3 3 + s3 G4 4 = 10
    outs = run(["RR B3", "Y1 Y2", "RR Y3", "R3 G4"], "R5", jump_in=True)
    check(
        outs,
        **won(0, first_player=0, turns=4, cards_played=4, cards_drawn=0, points=10),
        hand_sizes=(0, 2, 1, 1),
    )


def test_draw_until_playable():
    # draw_rule=until_playable, first R5.
    # T1 s0: Y1 no -> draws G1 no, G2 no, R9 ok -> must play R9 (3 cards left).
    # T2 s1: B9 ok (rank 9) -> wins. points = Y1 1 + G1 1 + G2 2 = 4
    outs = run(["Y1", "B9"], "R5", "G1 G2 R9 G3", draw_rule="until_playable")
    check(
        outs,
        **won(1, first_player=0, turns=2, cards_played=2, cards_drawn=3, points=4),
        hand_sizes=(3, 0),
    )
    for o in outs:
        assert [int(k) for k in o.pile] == [parse_kind("G3")]


def test_challenge_catches_bluff():
    # first R5; seat 0 bluffs whenever it can, seat 1 always challenges.
    # T1 s0: holds R1 (red), so W+4 is illegal: bluffs W+4 (bluffs 1), names c.
    # s1 challenges (challenges 1): caught -> seat 0 draws 4 (G1 Y1 B1 R1), seat 1
    #    draws nothing and plays on normally.
    # T2 s1: W -> names c'.
    # T3 s0: holds R1 R1 G1 Y1 B1: the card(s) of colour c' are its only legal cards
    #        (the two R1 are identical) -> plays a 1; four 1s left.
    # T4 s1: W -> wins. points = 4 x 1 = 4
    outs = run(
        ["W+4 R1", "W W"],
        "R5",
        "G1 Y1 B1 R1",
        strategies="random:bluff=1,random:challenge=1",
        seeds=range(16),
    )
    check(
        outs,
        **won(
            1,
            first_player=0,
            turns=4,
            cards_played=4,
            cards_drawn=4,
            points=4,
            max_stack=4,
            challenges=1,
            bluffs=1,
        ),
        hand_sizes=(4, 0),
    )


def test_challenge_of_legal_wild_draw_four_costs_six():
    # first G5; seat 0 holds no green, so its W+4 is legal; seat 1 always challenges.
    # T1 s0: W+4. s1 challenges and loses: draws 4 + 2 = 6 (B1-B6), loses its turn.
    # T2 s0: W+4, its last card: seat 1 draws 4 more (B7 B8 B9 Y9); no challenge of a
    #        last card (no other effect of the last card applies).
    # points = G1 + G2 + (1+...+9 = 45) + 9 = 57
    outs = run(
        ["W+4 W+4", "G1 G2"],
        "G5",
        "B1 B2 B3 B4 B5 B6 B7 B8 B9 Y9",
        strategies="random,random:challenge=1",
    )
    check(
        outs,
        **won(
            0,
            first_player=0,
            turns=2,
            cards_played=2,
            cards_drawn=10,
            points=57,
            max_stack=4,
            challenges=1,
            bluffs=0,
        ),
        hand_sizes=(0, 12),
    )


def test_challenge_or_stack_not_both():
    # stacking=same, 2 players, first G5; seat 1 always challenges and holds a W+4.
    # T1 s0: W+4 (legal: no green held). s1 challenges and loses: draws 6 (B1-B6) and
    #        loses its turn; having challenged it may not also stack its W+4 (8.1).
    # T2 s0: W+4, last card: seat 1 draws 4 (B7 B8 B9 Y9).
    # points = W+4 50 + G1 1 + (45 + 9) = 105
    outs = run(
        ["W+4 W+4", "W+4 G1"],
        "G5",
        "B1 B2 B3 B4 B5 B6 B7 B8 B9 Y9",
        stacking="same",
        strategies="random,random:challenge=1",
    )
    check(
        outs,
        **won(
            0,
            first_player=0,
            turns=2,
            cards_played=2,
            cards_drawn=10,
            points=105,
            max_stack=4,
            challenges=1,
            bluffs=0,
        ),
        hand_sizes=(0, 12),
    )


@pytest.mark.parametrize("penalty, drawn", [(2, 2), (1, 1)])
def test_forgotten_uno_is_caught(penalty, drawn):
    # seat 0 always forgets UNO, catch_uno 1.0; max_turns 2.
    # T1 s0: R1 ok, G1 no -> 1 card left, forgets UNO, caught: draws uno_penalty cards
    #        (Y7 Y8, or Y7 with uno_penalty 1).
    # T2 s1: B2 B3 no on R1 -> draws the next card (Y9, or Y8 with uno_penalty 1): no.
    # cards_drawn = penalty + 1; hand sizes 1 + penalty and 3.
    outs = run(
        ["R1 G1", "B2 B3"],
        "R5",
        "Y7 Y8 Y9",
        uno_penalty=penalty,
        catch_uno=1.0,
        strategies="random:forget_uno=1,random",
        max_turns=2,
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        turns=2,
        cards_played=1,
        cards_drawn=drawn + 1,
        uno_penalties=1,
        max_stack=0,
        hand_sizes=(1 + drawn, 3),
    )


def test_forgotten_uno_not_caught():
    # catch_uno 0.0: the forgotten call is never caught, nobody draws at T1.
    # T1 s0: R1 (forgets UNO). T2 s1: draws Y7 no. Limit.
    outs = run(
        ["R1 G1", "B2 B3"],
        "R5",
        "Y7 Y8 Y9",
        catch_uno=0.0,
        strategies="random:forget_uno=1,random",
        max_turns=2,
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        turns=2,
        cards_played=1,
        cards_drawn=1,
        uno_penalties=0,
        hand_sizes=(1, 3),
    )


# ======================================================================================
# Section 2: special cards
# ======================================================================================


def test_wild_shuffle_hands_dealt_from_next_player():
    # official-2018, 3 players, first R5; max_turns 3.
    # T1 s0: R1 ok, Y7 no -> {Y7}.
    # T2 s1: G2 G3 no on R1 -> draws G9 no -> {G2 G3 G9}.
    # T3 s2: WSH ok, B4 no -> plays WSH (1 card left). Hands collected: 1 + 3 + 1 = 5
    #        cards, shuffled, dealt one at a time from the next player (seat 0):
    #        s0, s1, s2, s0, s1 -> sizes 2, 2, 1 (seat 1 goes from 3 to 2).
    outs = run(
        ["R1 Y7", "G2 G3", "WSH B4"],
        "R5",
        "G9",
        rules="official-2018",
        max_turns=3,
        seeds=range(16),
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        turns=3,
        cards_played=2,
        cards_drawn=1,
        hand_sizes=(2, 2, 1),
    )
    dealt = set()
    for o in outs:
        allc = sorted(o.hand(0) + o.hand(1) + o.hand(2))
        assert allc == names("Y7 G2 G3 G9 B4")
        dealt.add(tuple(o.hand(2)))
    assert len(dealt) > 1  # the collected cards are shuffled


def test_wild_shuffle_hands_dealt_counter_clockwise():
    # official-2018, 4 players, first RR: counter-clockwise, dealer seat 3 first;
    # max_turns 3.
    # T1 s3: R1 ok, Y7 no. T2 s2: G1 ok (rank 1), G3 no.
    # T3 s1: WSH ok, B4 no (on G1) -> hands collected: 2 + 1 + 1 + 1 = 5 cards, dealt
    #        from the next player counter-clockwise: s0, s3, s2, s1, s0 -> sizes 2 1 1 1.
    #        (Dealt clockwise from seat 2, seat 2 would get the 2.)
    outs = run(
        ["Y2 Y3", "WSH B4", "G1 G3", "R1 Y7"],
        "RR",
        rules="official-2018",
        max_turns=3,
        seeds=range(16),
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        first_player=3,
        turns=3,
        cards_played=3,
        cards_drawn=0,
        hand_sizes=(2, 1, 1, 1),
    )
    for o in outs:
        allc = sorted(o.hand(0) + o.hand(1) + o.hand(2) + o.hand(3))
        assert allc == names("Y2 Y3 B4 G3 Y7")


@pytest.mark.parametrize(
    "last, rules",
    [
        ("WSH", "official-2018"),
        ("SNX", "pokemon"),
        ("GRN", "pokemon"),
        ("PoG", "motu"),
    ],
)
def test_special_wild_as_last_card_has_no_effect(last, rules):
    # Section 5: the round ends the moment seat 0 plays its last card; no other effect
    # of the card applies (no shuffle, no Snorlax/Greninja draws, no Grayskull draws).
    # T1 s0: last card ok (wild) -> wins. points = R9 9
    outs = run([last, "R9"], "G5", "B1 B2 B3", rules=rules)
    check(outs, **won(0, turns=1, cards_played=1, cards_drawn=0, points=9), hand_sizes=(0, 1))
    for o in outs:
        assert o.hand(1) == ["R9"]


@pytest.mark.parametrize(
    "blank, hand0, hand1",
    [
        ("swap_hands", "Y1 Y2 Y3", "R1 R2"),
        ("wild", "R1 R2", "Y1 Y2 Y3"),
    ],
)
def test_wild_customizable(blank, hand0, hand1):
    # official-2018, 2 players, first G5; max_turns 1.
    # T1 s0: WC ok, R1 R2 no -> plays WC. With blank_card=swap_hands seat 0 swaps hands
    #        with its only opponent; with blank_card=wild nothing else happens.
    outs = run(["WC R1 R2", "Y1 Y2 Y3"], "G5", rules="official-2018", blank_card=blank, max_turns=1)
    check(
        outs,
        winner=-1,
        truncated=True,
        turns=1,
        cards_played=1,
        cards_drawn=0,
        hand_sizes=(len(hand0.split()), len(hand1.split())),
    )
    for o in outs:
        assert (o.hand(0), o.hand(1)) == (names(hand0), names(hand1))


@pytest.mark.parametrize(
    "card, rules, extra",
    [
        ("R7", "official", {"seven_zero": True}),
        ("WC", "official-2018", {"blank_card": "swap_hands"}),
    ],
)
def test_swap_with_an_opponent_chosen_uniformly(card, rules, extra):
    # 3 players, limit 1. Seven: first R5, seat 0 {R7 G1 G2} (G1 G2 no on R5).
    # Customizable: first G5, seat 0 {WC R1 R2} (R1 R2 no on G5).
    # T1 s0: plays `card` (its only legal card) and swaps its other 2 cards with
    #        seat 1 {Y1 Y2 Y3} or seat 2 {B1 B2 B3}, each chosen in some seeds.
    first = "R5" if card == "R7" else "G5"
    mine = "G1 G2" if card == "R7" else "R1 R2"
    outs = run(
        [f"{card} {mine}", "Y1 Y2 Y3", "B1 B2 B3"],
        first,
        rules=rules,
        max_turns=1,
        seeds=range(24),
        **extra,
    )
    check(outs, winner=-1, truncated=True, turns=1, cards_played=1, cards_drawn=0)
    targets = set()
    for o in outs:
        hands = [o.hand(s) for s in range(3)]
        assert hands[0] in (names("Y1 Y2 Y3"), names("B1 B2 B3"))
        t = 1 if hands[0] == names("Y1 Y2 Y3") else 2
        assert hands[t] == names(mine)
        other = 3 - t
        assert hands[other] == (names("Y1 Y2 Y3") if other == 1 else names("B1 B2 B3"))
        targets.add(t)
    assert targets == {1, 2}


def test_snorlax_draw_three_discard_named_colour():
    # pokemon, 2 players, first G5; max_turns 2.
    # T1 s0: SNX ok, Y7 Y8 Y9 no -> names c (random).
    # T2 s1 (made to act by Snorlax): draws W W W, then discards every card of colour c:
    #        exactly one of R1 Y1 G1 B1 -> 6 cards left (three 1s + three W = 153 points);
    #        the discarded c1 is the new top card and the colour stays c.
    # cards_played = SNX + 1 forced discard = 2
    outs = run(
        ["SNX Y7 Y8 Y9", "R1 Y1 G1 B1"],
        "G5",
        "W W W",
        rules="pokemon",
        max_turns=2,
        seeds=range(16),
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        turns=2,
        cards_played=2,
        cards_drawn=3,
        max_stack=0,
        hand_sizes=(3, 6),
        hand_points=(24, 153),
    )
    for o in outs:
        top = parse_kind(o.top)
        assert o.top[1:] == "1" and COLOUR[top] == int(o.game_state[L.G_COLOUR])
        assert o.top not in o.hand(1)


def test_snorlax_victim_discarding_last_card_wins():
    # pokemon, 2 players, first G5. Seat 0 plays `heuristic` and holds only red after
    # playing Snorlax, so it names red.
    # T1 s0: SNX ok (R1 R2 no on G5) -> red.
    # T2 s1: draws R7 R8 R9, discards all its red cards (R3 R4 R6 R7 R8 R9): no cards
    #        left -> seat 1 wins.
    # cards_played = 1 + 6 = 7; points = R1 + R2 = 3
    outs = run(
        ["SNX R1 R2", "R3 R4 R6"], "G5", "R7 R8 R9", rules="pokemon", strategies="heuristic,random"
    )
    check(
        outs,
        **won(1, first_player=0, turns=2, cards_played=7, cards_drawn=3, points=3, max_stack=0),
        hand_sizes=(2, 0),
    )


def test_snorlax_discard_becomes_top_and_its_rank_counts():
    # pokemon, 3 players, first G5; seat 0 (heuristic, holds only red after) names red.
    # T1 s0: SNX. T2 s1: draws G4 G6 G7, discards its only red card R3: R3 is the new
    #        top, the colour stays red; 5 cards left.
    # T3 s2: G3 ok only by the rank of R3 (Y9 Y8 no) -> plays G3. Limit 3.
    outs = run(
        ["SNX R1 R2", "R3 Y1 Y2", "G3 Y9 Y8"],
        "G5",
        "G4 G6 G7 B1",
        rules="pokemon",
        strategies="heuristic,random,random",
        max_turns=3,
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        turns=3,
        cards_played=3,
        cards_drawn=3,
        hand_sizes=(2, 5, 2),
    )
    for o in outs:
        assert o.hand(1) == names("Y1 Y2 G4 G6 G7")
        assert o.hand(2) == names("Y8 Y9") and o.top == "G3"


def test_greninja_draws_until_named_colour():
    # pokemon, 2 players, first G5; seat 0 (heuristic, holds only red) names red.
    # T1 s0: GRN. T2 s1: draws B1 (blue), W (no colour), G2 (green), R3 (red: stop)
    #        -> 4 drawn, 7 cards, its turn ends; seat 0 names the colour again. Limit 2.
    outs = run(
        ["GRN R1 R2", "Y1 Y2 Y3"],
        "G5",
        "B1 W G2 R3 B4",
        rules="pokemon",
        strategies="heuristic,random",
        max_turns=2,
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        turns=2,
        cards_played=1,
        cards_drawn=4,
        reshuffles=0,
        hand_sizes=(2, 7),
    )
    for o in outs:
        assert o.hand(1) == names("Y1 Y2 Y3 B1 W G2 R3")
        assert [int(k) for k in o.pile] == [parse_kind("B4")]


def test_greninja_stops_when_nothing_left():
    # pokemon, 2 players, first G5; seat 0 (heuristic) names red; no red card anywhere.
    # T1 s0: GRN. T2 s1: draws B1, Y4; the draw pile is empty: the discard minus its
    #        top (G5) is reshuffled (1) and drawn; then nothing is left -> stops after 3.
    outs = run(
        ["GRN R1 R2", "Y1 Y2 Y3"],
        "G5",
        "B1 Y4",
        rules="pokemon",
        strategies="heuristic,random",
        max_turns=2,
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        turns=2,
        cards_played=1,
        cards_drawn=3,
        reshuffles=1,
        hand_sizes=(2, 6),
    )
    for o in outs:
        assert o.hand(1) == names("Y1 Y2 Y3 B1 Y4 G5")


def test_powers_of_grayskull_every_other_player_draws_three():
    # motu, 3 players, first G5; seat 0 (heuristic, holds only R1 after) names red.
    # T1 s0: PoG (R1 no on G5) -> seat 1 draws B1 B2 B3, seat 2 draws B4 B5 B6; play
    #        continues with the next player as normal.
    # T2 s1: no red -> draws G7 no. T3 s2: draws G8 no. T4 s0: R1 ok -> wins.
    # points = s1 (1+2+1+2+3+7 = 16) + s2 (3+4+4+5+6+8 = 30) = 46
    outs = run(
        ["PoG R1", "Y1 Y2", "Y3 Y4"],
        "G5",
        "B1 B2 B3 B4 B5 B6 G7 G8",
        rules="motu",
        strategies="heuristic,random,random",
    )
    check(
        outs,
        **won(0, first_player=0, turns=4, cards_played=2, cards_drawn=8, points=46, max_stack=0),
        hand_sizes=(0, 6, 6),
        hand_points=(0, 16, 30),
    )
    for o in outs:
        assert o.hand(1) == names("Y1 Y2 B1 B2 B3 G7")


# ======================================================================================
# 8.8 last_card = number, 8.9 after_draw = pass, 8.10 wd4_restriction = strict
# ======================================================================================


def test_last_card_number_lone_action_card_must_draw():
    # first R5, last_card=number.
    # T1 s0: RS alone: red, but it would empty the hand and is not a number -> no legal
    #        play: draws R7 ok (red; the hand holds 2 cards) -> plays R7.
    # T2 s1: Y7 ok (rank 7), a number -> wins. points = RS 20
    outs = run(["RS", "Y7"], "R5", "R7", last_card="number")
    check(
        outs,
        **won(1, first_player=0, turns=2, cards_played=2, cards_drawn=1, points=20),
        hand_sizes=(1, 0),
    )
    # last_card=any: T1 s0: RS, its last card -> wins at once. points = Y7 7
    check(
        run(["RS", "Y7"], "R5", "R7"),
        **won(0, first_player=0, turns=1, cards_played=1, cards_drawn=0, points=7),
    )


@pytest.mark.parametrize("lone", ["W", "W+4", "R+2"])
def test_last_card_number_lone_wild_or_draw_two_is_kept(lone):
    # first R5, max_turns 1. T1 s0: a lone wild-type card or Draw Two would empty the
    # hand -> no legal play: draws G3 (no: green 3 on red 5) -> the turn ends.
    # turns 1 = max_turns: truncated; s0 holds its lone card and G3.
    outs = run([lone, "B9"], "R5", "G3 G4", last_card="number", max_turns=1)
    check(
        outs, winner=-1, truncated=True, turns=1, cards_played=0, cards_drawn=1, hand_sizes=(2, 1)
    )
    for o in outs:
        assert o.hand(0) == names(f"{lone} G3")


def test_last_card_number_no_stack_with_the_last_card():
    # stacking=same, last_card=number, 2 players, first RS: seat 0 skipped, s1 first.
    # T1 s1: R1 ok (red), B+2 no -> plays R1; B+2 left.
    # T2 s0: R+2 ok (red), G7 no -> plays R+2: 2 pending on s1.
    # s1 holds only B+2: stacking it would empty its hand with a non-number card ->
    #    draws 2 (Y3 Y4), loses its turn.
    # T3 s0: G7 no (red +2 on top) -> draws Y5 no -> turn ends. max_turns 3: truncated.
    outs = run(
        ["R+2 G7", "R1 B+2"], "RS", "Y3 Y4 Y5 Y6", stacking="same", last_card="number", max_turns=3
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        first_player=1,
        turns=3,
        cards_played=2,
        cards_drawn=3,
        max_stack=2,
        hand_sizes=(2, 3),
    )
    # last_card=any: after T2, T3 s1 stacks B+2, its last card -> wins; s0 draws the
    # 4 pending cards Y3 Y4 Y5 Y6. points = G7 7 + 3+4+5+6 = 25
    check(
        run(["R+2 G7", "R1 B+2"], "RS", "Y3 Y4 Y5 Y6", stacking="same", max_turns=3),
        **won(1, first_player=1, turns=3, cards_played=3, cards_drawn=4, points=25, max_stack=4),
        hand_sizes=(5, 0),
    )


def test_last_card_number_no_jump_in_with_the_last_card():
    # jump_in, last_card=number, 2 players, first G5, max_turns 4.
    # T1 s0: RS no, B9 no -> draws Y1 no -> turn ends (RS B9 Y1).
    # T2 s1: R5 ok (rank 5), RS no -> plays R5; RS left.
    # T3 s0: RS ok (red), B9 no, Y1 no -> plays RS: s1 to be skipped. s1 holds an
    #        identical RS, its last card, not a number -> may not jump in.
    # s1 skipped. T4 s0: B9 no, Y1 no -> draws B2 no -> turn ends. Truncated.
    outs = run(["RS B9", "R5 RS"], "G5", "Y1 B2", jump_in=True, last_card="number", max_turns=4)
    check(
        outs, winner=-1, truncated=True, turns=4, cards_played=2, cards_drawn=2, hand_sizes=(3, 1)
    )
    # last_card=any: T4 s1 jumps in with RS, its last card -> wins. points = B9 9 + Y1 1
    check(
        run(["RS B9", "R5 RS"], "G5", "Y1 B2", jump_in=True, max_turns=4),
        **won(1, turns=4, cards_played=3, cards_drawn=1, points=10),
        hand_sizes=(2, 0),
    )


def test_last_card_number_multi_play_stops_before_emptying_the_hand_with_skips():
    # multi_play, last_card=number, 2 players, first R5, seat 0 `heuristic`, max_turns 2.
    # T1 s0: RS (both identical) -> would add the identical RS, but that empties the
    #        hand with Skips -> plays one RS only; s1 skipped (4.5: 2 players).
    # T2 s0: the lone RS -> no legal play: draws Y7 (no on a red Skip) -> turn ends.
    outs = run(
        ["RS RS", "G1 G2"],
        "R5",
        "Y7 Y8",
        multi_play=True,
        last_card="number",
        strategies="heuristic,random",
        max_turns=2,
    )
    check(
        outs, winner=-1, truncated=True, turns=2, cards_played=1, cards_drawn=1, hand_sizes=(2, 2)
    )
    # last_card=any: T1 s0 plays RS RS, its hand empty -> wins. points = G1 + G2 = 3
    check(
        run(
            ["RS RS", "G1 G2"],
            "R5",
            "Y7 Y8",
            multi_play=True,
            strategies="heuristic,random",
            max_turns=2,
        ),
        **won(0, turns=1, cards_played=2, cards_drawn=0, points=3),
    )


def test_last_card_number_a_run_of_numbers_may_empty_the_hand():
    # multi_play, last_card=number, first R5, seat 0 `heuristic`: R6 R7 (a run of
    # numbers, in either order) empties the hand -> wins. points = G1 + G2 = 3
    outs = run(
        ["R6 R7", "G1 G2"],
        "R5",
        "Y7",
        multi_play=True,
        last_card="number",
        strategies="heuristic,random",
    )
    check(outs, **won(0, turns=1, cards_played=2, cards_drawn=0, points=3))


def test_last_card_number_snorlax_discards_still_win():
    # as test_snorlax_victim_discarding_last_card_wins: Snorlax's discards are not
    # plays, so last_card=number does not stop the victim from going out (Reading).
    outs = run(
        ["SNX R1 R2", "R3 R4 R6"],
        "G5",
        "R7 R8 R9",
        rules="pokemon",
        strategies="heuristic,random",
        last_card="number",
    )
    check(
        outs,
        **won(1, first_player=0, turns=2, cards_played=7, cards_drawn=3, points=3, max_stack=0),
        hand_sizes=(2, 0),
    )


def test_after_draw_pass_keeps_a_legal_drawn_card():
    # after_draw=pass, first R5, max_turns 2.
    # T1 s0: G1 no -> draws R9 (legal) -> keeps it, the turn ends.
    # T2 s1: B9 no (blue 9 on red 5) -> draws Y3 no -> the turn ends. Truncated.
    outs = run(["G1", "B9"], "R5", "R9 Y3", after_draw="pass", max_turns=2)
    check(
        outs, winner=-1, truncated=True, turns=2, cards_played=0, cards_drawn=2, hand_sizes=(2, 2)
    )
    for o in outs:
        assert o.hand(0) == names("G1 R9")


def test_after_draw_pass_with_until_playable_is_refused():
    from unosim.game.rules import RuleError, resolve

    with pytest.raises(RuleError, match="after_draw.*until_playable") as e:
        resolve("draw-until-playable", "after_draw=pass")
    assert "\n" not in str(e.value)


def test_strict_wild_draw_four_forbidden_by_a_matching_number():
    # wd4_restriction=strict, first G5, 2 players. Seat 0 holds no green, but Y5
    # matches the rank: its W+4 is not legal (8.10).
    # T1 s0: Y5 (its only legal card) -> yellow; W+4 left.
    # T2 s1: B1 no, B2 no -> draws B3 no -> turn ends.
    # T3 s0: W+4, now its only card and no other legal card -> legal, its last card:
    #        s1 draws 4 (B4 B6 B7 B8).
    # points = 1+2+3+4+6+7+8 = 31
    outs = run(["W+4 Y5", "B1 B2"], "G5", "B3 B4 B6 B7 B8", wd4_restriction="strict")
    check(
        outs,
        **won(
            0,
            first_player=0,
            turns=3,
            cards_played=2,
            cards_drawn=5,
            points=31,
            max_stack=4,
            bluffs=0,
        ),
        hand_sizes=(0, 7),
    )


def test_strict_wild_draw_four_forbidden_by_another_wild():
    # wd4_restriction=strict, first G5, max_turns 1: W is legal, so W+4 is not.
    # T1 s0: plays W (names a colour); W+4 kept. (With `colour`, either could go.)
    outs = run(["W+4 W", "B1 B2"], "G5", "B3", wd4_restriction="strict", max_turns=1)
    check(outs, winner=-1, truncated=True, turns=1, cards_played=1, bluffs=0, hand_sizes=(1, 2))
    for o in outs:
        assert o.hand(0) == ["W+4"]


def test_strict_challenge_catches_a_wild_draw_four_played_beside_a_matching_number():
    # wd4_restriction=strict, first G5; seat 0 bluffs when it can, seat 1 challenges.
    # T1 s0: holds Y5 (matches the rank 5), so W+4 is illegal: bluffs it (bluffs 1).
    # s1 challenges (challenges 1): caught -> s0 draws 4 (B1 B2 B3 B4); s1 draws none.
    # max_turns 1: s1's turn is not taken: truncated.
    outs = run(
        ["W+4 Y5", "W W"],
        "G5",
        "B1 B2 B3 B4",
        strategies="random:bluff=1,random:challenge=1",
        wd4_restriction="strict",
        max_turns=1,
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        turns=1,
        cards_played=1,
        cards_drawn=4,
        max_stack=4,
        challenges=1,
        bluffs=1,
        hand_sizes=(5, 2),
    )


def test_strict_legal_wild_draw_four_challenge_costs_six():
    # wd4_restriction=strict, first G5: B1 matches neither colour nor rank, so W+4 is
    # legal. T1 s0: W+4 (bluff=1 has nothing to bluff). s1 challenges and loses: draws
    # 4 + 2 = 6 (Y1 Y2 Y3 Y4 Y6 Y7), loses its turn. max_turns 1: truncated.
    outs = run(
        ["W+4 B1", "W W"],
        "G5",
        "Y1 Y2 Y3 Y4 Y6 Y7",
        strategies="random:bluff=1,random:challenge=1",
        wd4_restriction="strict",
        max_turns=1,
    )
    check(
        outs,
        winner=-1,
        truncated=True,
        turns=1,
        cards_played=1,
        cards_drawn=6,
        max_stack=4,
        challenges=1,
        bluffs=0,
        hand_sizes=(1, 8),
    )
