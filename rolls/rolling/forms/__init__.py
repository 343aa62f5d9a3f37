"""Roll panels: one form per system that validates the options, asks the engine for the pool and
the odds, and turns an engine roll into an :class:`~rolls.rolling.outcomes.Outcome`.

No rule lives here. Every pool, reading and chance comes from ``rules``; the forms only word
it (the breakdown "3 base + 2 Athletics + 1 Strength = 6d6 vs CL 3").
"""
