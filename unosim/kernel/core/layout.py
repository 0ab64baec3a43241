"""Index constants shared by the kernels and the Python side.

Module-level ints are compile-time constants for numba. Small arrays carry a game:
``rules`` (int64, ``R_*``), the round's scalar state in four arrays of one concern each
(``G_*`` game state, ``K_*`` counters, ``MEM_*`` strategy memory, ``TR_*`` trace and test
flags; bundled with the hands and piles in ``state.Round``) and the output row (int32,
``C_*`` then per-seat columns).
"""

from .kinds import MAX_DECLARED, N_BUILTIN_KINDS, N_COLOURS, N_DECLARED_KINDS

MAX_PLAYERS = 10

# -- rules array (RuleSet.to_array) ---------------------------------------------------
# One slot per rule declared in unosim/game/rules.py (``R_`` + the rule's name in capitals);
# a rule with choices holds the index of its value in the declared choices (the named
# codes below), a switch 0/1, a number itself, a probability p as round(p * 2**32).
R_HAND_SIZE = 0
R_BLANK_CARD = 1
R_DRAW_RULE = 2
R_WD4_RESTRICTION = 3
R_CHALLENGE = 4
R_CHALLENGE_PENALTY = 5
R_CATCH_UNO = 6
R_UNO_PENALTY = 7
R_MAX_TURNS = 8
R_STACKING = 9
R_SEVEN_ZERO = 10
R_JUMP_IN = 11
R_MULTI_PLAY = 12
R_SCORING = 13
R_TARGET_SCORE = 14
R_NEXT_DEALER = 15
R_PENALTY_ELIMINATION = 16
R_ELIMINATION_SCORE = 17
R_MAX_ROUNDS = 18
R_LAST_CARD = 19
R_AFTER_DRAW = 20
N_RULES = 21
# The declared cards (docs/cards.md, ``game.rules.CardSpec``) follow the rules in the same
# array, as data: a few summaries, then one block of ``DC_W`` per declared card ``d`` at
# ``DC0 + d * DC_W`` (all 0 for a rule set without declared cards).
DC_N = N_RULES  # declared cards in the rule set
DC_ANYWHERE = N_RULES + 1  # bit r: coloured declared rank r may be played on anything
DC_COLOUR_ONLY = N_RULES + 2  # bit r: coloured declared rank r matches by colour only
DC_STACKS = N_RULES + 3  # bit d: declared card d is a waiting draw penalty (``stack``)
DC0 = N_RULES + 4
D_WILD = 0  # 1: wild (kind DECLARED_WILD + d), 0: coloured
D_NAMES = 1  # 1: its player names a colour when it is played
D_PENALTY = 2  # stack cards: the waiting draw penalty it adds
D_ATTACK = 3  # for the players' scores: kinds.ATTACK_* of its steps
D_DRAWS = 4  # ... cards its steps make one opponent draw
D_SWAP = 5  # ... kinds.SWAP_* of its steps
D_N_STEPS = 6
D_STEPS = 7  # + 2 * i: step i's operation (``OP_*``), + 2 * i + 1 its number
MAX_STEPS = 4
DC_W = D_STEPS + 2 * MAX_STEPS
N_RULE_ARRAY = DC0 + MAX_DECLARED * DC_W  # the length of the rule array
# the primitives of a declared card's effect (docs/cards.md)
OP_DRAW_NEXT, OP_DRAW_OTHERS, OP_DRAW_CHOSEN = 1, 2, 3
OP_SKIP_NEXT, OP_SKIP_ALL, OP_REVERSE = 4, 5, 6
OP_DISCARD_OWN, OP_DISCARD_VICTIM, OP_AGAIN = 7, 8, 9
OP_SWAP, OP_PASS, OP_DEAL = 10, 11, 12
OP_SPEND_TURN, OP_DRAW_UNTIL_COLOUR, OP_NAME_AGAIN = 13, 14, 15

# codes of the rules with choices (their order in unosim/game/rules.py)
BLANK_WILD, BLANK_SWAP_HANDS = 0, 1
DRAW_ONE, DRAW_UNTIL_PLAYABLE = 0, 1
WD4_COLOUR, WD4_NONE, WD4_STRICT = 0, 1, 2
STACK_NONE, STACK_SAME, STACK_PROGRESSIVE = 0, 1, 2
SCORING_WINNER_TAKES_ALL, SCORING_EACH_OWN_NEGATIVE = 0, 1
DEALER_ROTATE, DEALER_WINNER = 0, 1
LAST_ANY, LAST_NUMBER = 0, 1
AFTER_DRAW_PLAY, AFTER_DRAW_PASS = 0, 1

# -- the state of a round (state.Round): four small int64 arrays, each of one concern --
# game state g[G_*]: what the rules act on
G_N = 0  # players in the round
G_DIR = 1  # +1 clockwise (seat order), -1 counter-clockwise
G_TOP = 2  # kind on top of the discard pile
G_COLOUR = 3  # current colour 0..3
G_PILE_N = 4  # cards in the draw pile (top is pile[G_PILE_N - 1])
G_DISC_N = 5  # cards in the discard pile, top included
G_PEND_DRAW = 6  # pending Draw Two / Wild Draw Four penalty on the next player
G_PEND_SKIP = 7  # pending skips of built-in cards: the next that many players to act
G_PEND_SPECIAL = 8  # pending Snorlax / Greninja kind on the next player, or -1
G_PEND_BY = 9  # who played the pending Wild Draw Four / Greninja
G_CHALLENGEABLE = 10  # the pending Wild Draw Four can be challenged
G_BLUFF = 11  # the pending Wild Draw Four was played illegally
G_PREV_COLOUR = 12  # colour before the last wild (what a challenge checks)
G_OVER = 13  # round over: 1 won, 2 truncated
G_WINNER = 14
G_FIRST = 15
G_DECK_N = 16  # cards in the deck
G_DRAWN = 17  # a legal card just drawn + 1 while an expert seat decides on it (0: none)
G_SKIPS = 18  # + seat: skips a declared card left waiting for that seat (docs/cards.md)
N_G = G_SKIPS + MAX_PLAYERS
# counters count[K_*]: what the round's record reports (RULES.md section 6); turns
# also bound the round (max_turns)
K_TURNS = 0
K_CARDS_PLAYED = 1
K_CARDS_DRAWN = 2
K_RESHUFFLES = 3
K_MAX_STACK = 4
K_CHALLENGES = 5
K_BLUFFS = 6
K_UNO_PENALTIES = 7
N_K = 8
# strategy memory mem[MEM_*]: what the table has seen (card counters use it)
MEM_DECK_C = 0  # + colour: cards of that colour in the deck (set for weighted players)
MEM_SHORT = MEM_DECK_C + N_COLOURS  # + seat: bit c set when that seat is known to hold
#                                     no card of colour c
SHORT_WILD = 1 << N_COLOURS  # MEM_SHORT bit: known to hold no wild-type card
SHORT_RANK = N_COLOURS + 1  # MEM_SHORT bit SHORT_RANK + r: no card of rank r (any colour)
MEM_DISC_C = MEM_SHORT + MAX_PLAYERS  # + colour: cards of that colour in the discard pile
MEM_NAMED = MEM_DISC_C + N_COLOURS  # + seat: 0, or what the table saw of its last
# play that named a colour (the expert reads it): the colour named + 1, the cards it held
# << NAMED_SIZE, the ``MEM_SHORT`` bits of the colour in play and the top card's rank
# before it (0 unless played from the hand) << NAMED_LACK, the card - N_COLOURED
# << NAMED_KIND, the next player's cards << NAMED_NEXT; 0 again once its hand changes
# otherwise than by playing (a draw, a swap: ``piles.forget_plays``)
NAMED_SIZE, NAMED_LACK, NAMED_KIND, NAMED_NEXT = 3, 11, 33, 38
# their widths in bits (``packed.py`` packs and reads them; the colour + 1 from bit 0):
# the lack holds every ``MEM_SHORT`` bit (declared ranks too), the kind any card that
# names a colour (a coloured declared card may)
NAMED_COLOUR_W, NAMED_SIZE_W, NAMED_LACK_W, NAMED_KIND_W, NAMED_NEXT_W = 3, 8, 22, 5, 8
MEM_PLAYED = MEM_NAMED + MAX_PLAYERS  # + j * MAX_PLAYERS + seat: 0, or its j-th last card
# played from the hand on a normal turn + 1, plus the colour in play << PLAYED_COLOUR and
# the top card << PLAYED_TOP before it, the cards it held after the play << PLAYED_SIZE
# (the expert's); a seat's slot 0 is 0 again once its hand changes otherwise
PLAYED_COLOUR, PLAYED_TOP, PLAYED_SIZE = 7, 10, 17
# their widths in bits (the card + 1 from bit 0)
PLAYED_KIND_W, PLAYED_COLOUR_W, PLAYED_TOP_W, PLAYED_SIZE_W = 7, 3, 7, 8
PLAYED_DEPTH = 4  # plays kept per seat
N_MEM = MEM_PLAYED + PLAYED_DEPTH * MAX_PLAYERS
# trace and test flags tr[TR_*]
TR_SCRIPTED = 0  # draws take the pile's last card instead of a random one
TR_EVENTS = 1  # events so far, written or not (trace mode, see trace.py)
TR_WATCH = 2  # 1: keep MEM_NAMED and MEM_PLAYED (an expert's real round; nothing else reads them)
N_TR = 3

# -- hand summary hinfo[seat, :] ---------------------------------------------------------
H_WILD = 4  # wild-type cards held (0..3 are the colour counts)
H_TOTAL = 5
H_MASK = 6  # + colour: bit r set when the seat holds the card of rank r of that colour
H_WILD_MASK = 10  # bit i set when the seat holds wild-type kind N_COLOURED + i
N_H = 11

# -- random streams of one round (rng.py) ----------------------------------------------
S_DEAL = 0  # the shuffle, setup Wild Draw Four re-insertion
S_TABLE = 1  # reshuffles, Shuffle Hands, catching a forgotten UNO
S_SEAT0 = 2  # seat s decides with stream S_SEAT0 + s
N_STREAMS = S_SEAT0 + MAX_PLAYERS

# -- output columns of one round (RULES.md section 6) ---------------------------------
C_WINNER = 0
C_FIRST = 1
C_TURNS = 2
C_CARDS_PLAYED = 3
C_CARDS_DRAWN = 4
C_RESHUFFLES = 5
C_POINTS = 6
C_MAX_STACK = 7
C_CHALLENGES = 8
C_BLUFFS = 9
C_UNO_PENALTIES = 10
C_TRUNCATED = 11
N_FIXED_COLS = 12
C_HAND_POINTS = N_FIXED_COLS  # + seat
C_HAND_SIZE = N_FIXED_COLS + MAX_PLAYERS  # + seat
C_PENALTY_POINTS = N_FIXED_COLS + 2 * MAX_PLAYERS  # + seat (penalty_elimination)
N_COLS = N_FIXED_COLS + 3 * MAX_PLAYERS

FIXED_COLUMNS = (
    "winner",
    "first_player",
    "turns",
    "cards_played",
    "cards_drawn",
    "reshuffles",
    "points",
    "max_stack",
    "challenges",
    "bluffs",
    "uno_penalties",
    "truncated",
)

# -- strategy parameters sparams[seat, :] (strategies.py) ------------------------------
P_BLUFF = 0  # probability of a Wild Draw Four bluff when one is possible
P_CHALLENGE = 1  # probability of challenging; -1 = the `smart` policy
P_FORGET_UNO = 2  # probability of forgetting to call UNO
P_STACK = 3  # probability of stacking when able
P_JUMP = 4  # probability of jumping in when able
P_W = 5  # + feature: the weights of the weighted family (strategies.FEATURES)
N_WEIGHTS = 11
N_PARAMS = P_W + N_WEIGHTS
CHALLENGE_SMART = -1.0

# -- how a turn's card is played (effects.play) -----------------------------------------
PLAY_HAND, PLAY_DRAWN, PLAY_STACK = 0, 1, 2  # chosen from the hand, just drawn, stacked

# -- trace rows trace[i, :] (trace.py) --------------------------------------------------
# Each row is one atomic step: what happened, then the state and every hand AFTER it.
EV_TYPE = 0
EV_SEAT = 1  # who acted (-1 for the table)
EV_KIND = 2  # the card (or the colour named, for E_COLOUR), else -1
EV_FLAGS = 3
EV_AUX = 4  # a number: cards moved, the swap target, the penalty drawn...
EV_TOP = 5
EV_COLOUR = 6
EV_DIR = 7
EV_PEND = 8  # pending draw penalty
EV_SKIP = 9  # pending skips: G_PEND_SKIP, plus every seat's G_SKIPS in a wide trace
EV_SPECIAL = 10  # pending Snorlax/Greninja kind, or -1
EV_TURN = 11  # turns taken so far
EV_PILE = 12  # cards in the draw pile
EV_DISC = 13  # cards in the discard pile
EV_HANDS = 14  # + seat * N_BUILTIN_KINDS + kind, for the built-in kinds
EV_W = EV_HANDS + MAX_PLAYERS * N_BUILTIN_KINDS  # a trace's width without declared cards
EV_DECL = EV_W  # + seat * N_DECLARED_KINDS + kind - N_BUILTIN_KINDS (declared kinds)
EV_W_DECL = EV_DECL + MAX_PLAYERS * N_DECLARED_KINDS  # ... with declared cards
E_DEAL = 1  # the hands are dealt
E_RETURN = 2  # a Wild Draw Four turned at setup goes back into the pile
E_START = 3  # the first card is turned and its setup effect applied; seat: first player
E_PLAY = 4  # a card from the hand on a normal turn
E_DRAWN = 5  # the card just drawn, played
E_STACK = 6  # a card stacked on a pending penalty (8.1)
E_JUMP = 7  # a jump-in (8.3)
E_EXTRA = 8  # a further card of a multi-card play (8.6)
E_COLOUR = 9  # a colour named (kind = colour)
E_DRAW = 10  # a turn's draw begins (4.2): the hand shown is the one that found no play
E_DREW = 11  # one card drawn (any reason)
E_RESHUFFLE = 12  # aux = cards moved into the draw pile
E_PENALTY = 13  # seat takes the pending penalty, aux = cards (draws follow)
E_SKIPPED = 14  # seat loses its turn to a skip
E_CHALLENGE = 15  # seat challenges; flags F_CAUGHT if the Wild Draw Four was a bluff
E_UNO = 16  # seat forgot UNO and was caught (penalty draws follow)
E_SWAP = 17  # seat swapped hands with aux
E_ROTATE = 18  # every hand passed on in the direction of play
E_SHUFFLE = 19  # Wild Shuffle Hands dealt every hand anew
E_SNORLAX = 20  # seat's Snorlax turn begins (draws follow)
E_DISCARD = 21  # Snorlax victim discarded aux cards of the named colour; kind = new top
E_GRENINJA = 22  # seat's Greninja turn begins (draws follow)
E_WIN = 23  # seat has no cards (the round's points are in its row)
E_TRUNCATED = 24  # max_turns reached
E_EFFECT = 25  # seat's Skip/Reverse/Draw Two/Wild Draw Four/Snorlax/Greninja/Grayskull acts
EVENT_NAMES = {
    v: k[2:].lower()
    for k, v in list(globals().items())
    if k.startswith("E_") and isinstance(v, int)
}
F_BLUFF = 1  # EV_FLAGS of a play: an illegal Wild Draw Four
F_CAUGHT = 1  # EV_FLAGS of a challenge: the bluff was caught
