"""The log as its own app: entries, their kinds, the chain and who may read what (docs/roll-log.md,
docs/architecture.md). It sits below every app that writes or shows entries and above sheets."""
