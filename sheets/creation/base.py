"""The form every system's guided creation builds on, and its fields.

Each system's form holds the whole first sheet and asks its system's ``creation_check``
(``rules``) for the budgets, the problems and the warnings (sheets.creation)."""

from __future__ import annotations

from typing import Any

from django import forms

from rules.creation import CreationCheck, Problem
from sheets import ranges
from sheets.models import (
    Campaign,
)


class RatingField(forms.IntegerField):
    """A number with its range shown before typing (min/max and "0 to 2") and messages in the
    player's words. Left empty it is the blank sheet's value, so a cleared box never refuses."""

    def __init__(self, label: str, low: int, high: int, default: int = 0) -> None:
        span = ranges.span(low, high)
        words = f"{label} is {span}."
        super().__init__(
            label=label,
            required=False,
            min_value=low,
            max_value=high,
            initial=default,
            help_text=span,
            error_messages={
                "invalid": f"{label} must be a whole number.",
                "min_value": words,
                "max_value": words,
            },
        )
        self.default = default

    def clean(self, value: Any) -> int:
        cleaned = super().clean(value)
        return self.default if cleaned is None else int(cleaned)


def text_field(label: str, help_text: str = "", placeholder: str = "") -> forms.CharField:
    field = forms.CharField(
        label=label, max_length=ranges.NAME_MAX_LENGTH, required=False, help_text=help_text
    )
    if placeholder:
        field.widget.attrs["placeholder"] = placeholder
    return field


class CreationForm(forms.Form):
    """The parts every system shares: the name, the GM's hiding, the engine's check."""

    name = forms.CharField(
        label="Name",
        max_length=ranges.NAME_MAX_LENGTH,
        error_messages={"required": "Give your character a name."},
    )
    # A player who spent some points but not all confirms it (a name alone, a blank sheet to fill
    # in later, needs no confirming: the message after Create says what is unspent).
    unspent_ok = forms.BooleanField(label="Create with these points unspent", required=False)

    def __init__(self, data: Any = None, *, campaign: Campaign, gm: bool) -> None:
        super().__init__(data)
        self.campaign = campaign
        # Budgets bind players' characters; the GM's NPCs are built as the story needs them.
        self.strict = not gm
        if gm:
            # Only the GM makes NPCs, and only NPCs can be hidden.
            self.fields["hidden_from_players"] = forms.BooleanField(
                label="Hidden from players",
                required=False,
                help_text="Players don't see this NPC or its rolls until you show it.",
            )
        self.add_fields()
        self.section_errors: dict[str, list[str]] = {}
        self.build: dict[str, Any] = {}
        self._check: CreationCheck | None = None

    # --- what each system fills in -------------------------------------------------------------
    def add_fields(self) -> None:
        raise NotImplementedError

    def make_build(self) -> dict[str, Any]:
        """The sheet as entered (valid fields, blank-sheet values for the rest); adds row errors."""
        raise NotImplementedError

    def run_check(self, build: dict[str, Any]) -> CreationCheck:
        raise NotImplementedError

    def problem_field(self, problem: Problem) -> str | None:
        """The field a problem stands beside, or None for a section's message."""
        return None

    # --- shared ---------------------------------------------------------------------------------
    def value(self, name: str) -> Any:
        """The cleaned value, or the field's blank-sheet value when it is invalid or unbound."""
        field = self.fields[name]
        default = getattr(field, "default", field.initial if field.initial is not None else "")
        if self.is_bound and hasattr(self, "cleaned_data"):
            return self.cleaned_data.get(name, default)
        return default

    def clean(self) -> dict[str, Any]:
        super().clean()
        self.build = self.make_build()
        self._check = self.run_check(self.build)
        for problem in self.refusals:
            field = self.problem_field(problem)
            if field is None:
                self.section_errors.setdefault(problem.where, []).append(problem.message)
                self.add_error(None, problem.message)
            else:
                self.add_error(field, problem.message)
        if self.asks_unspent and not self.cleaned_data.get("unspent_ok"):
            self.add_error(
                "unspent_ok",
                f"Not spent yet: {self.check.unspent_text}. Spend them, or tick “Create with"
                " these points unspent” and create again.",
            )
        return self.cleaned_data

    @property
    def asks_unspent(self) -> bool:
        """Whether Create asks the player to confirm points left unspent."""
        check = self.check
        return self.strict and self.is_bound and check.started and bool(check.unspent)

    @property
    def panel_problems(self) -> list[str]:
        """What the budget panel lists: the fields' own checks and the engine's refusals, each
        once (a refusal beside its field is also that field's error)."""
        found = [*self.field_messages, *(p.message for p in self.refusals)]
        return list(dict.fromkeys(found))

    @property
    def error_summary(self) -> list[tuple[str, str]]:
        """Each message with the anchor of where it stands: a field's input, or the step of a
        section's message (``#step-<where>``)."""
        section = {m for messages in self.section_errors.values() for m in messages}
        linked = [
            (str(message), f"#{self[name].auto_id}")
            for name, messages in self.errors.items()
            if name not in ("__all__", "unspent_ok")
            for message in messages
        ]
        linked += [
            (message, f"#step-{where}")
            for where, messages in self.section_errors.items()
            for message in messages
        ]
        linked += [
            (str(m), "#creation-budget") for m in self.non_field_errors() if m not in section
        ]
        # The confirmation last: what is left to spend matters once the rest is right.
        linked += [(str(m), "#id_unspent_ok") for m in self.errors.get("unspent_ok", [])]
        return linked

    @property
    def check(self) -> CreationCheck:
        """The engine's answer for what is on the page now (a blank sheet before any input)."""
        if self.is_bound:
            self.is_valid()
        if self._check is None:
            self._check = self.run_check(self.make_build())
        return self._check

    def _relaxed(self, problem: Problem) -> bool:
        # A budget (a section's problem) binds players only. A rule about one item — a sub-skill
        # above its vocation, a domain skill without a domain — is the sheet's rule for everyone.
        return not self.strict and self.problem_field(problem) is None

    @property
    def refusals(self) -> list[Problem]:
        """The problems that stop Create."""
        return [p for p in self.check.problems if not self._relaxed(p)]

    @property
    def field_messages(self) -> list[str]:
        """What the fields' own checks say ("Strength is 0 to 2."), for the live budget: while a
        box holds a bad value the budget counts the blank sheet's value instead, and says why.
        Not the missing name: that is for Create to ask, not for every keystroke elsewhere."""
        return [
            str(message)
            for name, messages in self.errors.items()
            if name not in ("__all__", "name", "unspent_ok")
            for message in messages
        ]

    @property
    def error_count(self) -> int:
        return sum(len(messages) for messages in self.errors.values())

    @property
    def warnings(self) -> list[str]:
        """Soft checks; for the GM's NPCs the broken budgets too (never refused)."""
        relaxed = [p.message for p in self.check.problems if self._relaxed(p)]
        return [*relaxed, *self.check.warnings]

    def _touched(self, prefix: str) -> bool:
        if not self.is_bound:
            return False
        names = [name for name in self.fields if name.startswith(prefix)]
        if any(name in self.errors for name in names):
            return True
        blank = {"", "0", None}
        return any(self.data.get(self.add_prefix(name)) not in blank for name in names)

    def row_error(self, field: str, message: str) -> None:
        if self.is_bound and field not in self.errors:
            self.add_error(field, message)
