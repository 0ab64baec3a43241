"""The round's arrays and what every kernel reads or changes in them: state, layout,
card kinds, RNG, piles, hands, packed words, seats, trace."""
