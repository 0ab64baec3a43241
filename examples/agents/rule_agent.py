"""A rule-based agent in about twenty lines: attack a player about to go out, keep wild
cards for last, play the colour it holds most, name the colour it holds most."""
import numpy as np

DRAW, PASS, UNO = 80, 81, 97


def agent(obs):
    legal, hand = obs.legal, obs.hand
    held = np.add.reduceat(hand[:52], np.arange(0, 52, 13))  # cards per colour
    if obs.decision == "colour":
        return 83 + int(np.argmax(held))
    if obs.decision == "target":  # swap with the smallest hand
        return min(legal, key=lambda a: obs.hand_sizes[a - 87])
    if obs.decision == "jump":
        return next(a for a in legal if a != PASS)
    if obs.decision == "uno":
        return UNO
    bluffing = obs.decision == "turn" and obs.bluff
    plays = [a for a in legal if a < 80 and not (bluffing and 56 <= a < 60)]
    if not plays:
        return DRAW if DRAW in legal else PASS
    nxt = obs.hand_sizes[(obs.seat + obs.direction) % obs.n_players]

    def score(a):
        if a >= 52:  # a wild: last, unless the next player is close to going out
            return (3 if nxt <= 2 else -1) + held[(a - 52) % 4] / 10
        attack = a % 13 >= 10 and nxt <= 2
        return 2 * attack + held[a // 13] / 10 + (a % 13) / 100
    return max(plays, key=score)
