"""A member's view of the log, signed: what each member has been shown, in order, as a hash chain
the server signs and the member's browser holds it to (docs/verifiable-dice.md#your-view-of-the-log)."""
