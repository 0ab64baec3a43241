"""An agent that plays exactly like RULES.md section 10's ``random`` strategy.

It reads only the documented observation (``unosim.sim.outside.Observation``): a card
chosen uniformly among the legal cards in its hand, each physical card equally likely
(and facing a penalty under stacking, among its stackable cards); the colour of a
wild-type card uniformly; it always plays a legal card it drew, names colours and swap
targets uniformly, always jumps in, and never draws voluntarily, bluffs, challenges,
adds extra cards or forgets UNO. Its randomness is ``obs.rng``, so its games are
reproducible.

    unosim simulate --strategies examples/agents/random_agent.py:agent,random,random,random
"""
DRAW, PASS, UNO = 80, 81, 97  # actions (unosim.sim.outside.ACTIONS)
WILD_DRAW_FOUR = 53


def card(a):
    """The card a play action plays (0-51 coloured, 52-79 wild-type with a colour), or -1."""
    if a < 52:
        return a
    if a < 80:
        return 52 + (a - 52) // 4
    return -1


def agent(obs):
    rng = obs.rng
    legal = obs.legal
    d = obs.decision
    if d in ("turn", "penalty", "drawn"):
        plays = {}  # card -> its play actions (a wild-type card: one per colour)
        for a in legal:
            k = card(a)
            if k >= 0 and not (d == "turn" and k == WILD_DRAW_FOUR and obs.bluff):
                plays.setdefault(k, []).append(a)
        if not plays:
            return DRAW  # no legal card: draw, or take the penalty
        kinds = list(plays)
        if d == "drawn":
            k = kinds[0]  # the one card drawn
        else:  # each physical card equally likely
            hand = obs.hand.tolist()
            x = int(rng.integers(sum(hand[k] for k in kinds)))
            for k in kinds:
                x -= hand[k]
                if x < 0:
                    break
        options = plays[k]
        return options[int(rng.integers(len(options)))]
    if d in ("colour", "target"):
        return legal[int(rng.integers(len(legal)))]
    if d == "jump":
        return next(a for a in legal if a != PASS)
    if d == "uno":
        return UNO
    return PASS  # extra: one card only
