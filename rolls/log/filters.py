"""The log's filter form (who, what, outcome, visibility, dates, words) and the entries it selects, for
the log page, its exports and its statistics alike.
"""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from typing import Any, cast

from django import forms
from django.db import connections
from django.db.models import BooleanField, Model, Q, QuerySet, Value
from django.db.models.expressions import RawSQL
from django.http import QueryDict
from django.utils import timezone

from log.models import OUTCOME_LABELS, EntryText, RollEntry, RollEntryQuerySet
from rolls.messages.forms import recipient_rows, speaker_rows, split_choices
from rolls.sessions.state import SessionItem, marker_rows, sessions_of
from sheets.converters import parse_id
from sheets.models import Campaign, Character, Membership
from sheets.systems import rule_system_of
from web.http import AuthenticatedHttpRequest

SEARCH_MAX_WORDS = 8

# The six searched columns joined by spaces, as the trigram index of migration 0016 has them
# (PostgreSQL uses an expression index only for the very expression): a word has no space, so it
# is in this text exactly when it is in one of the columns.
SEARCH_TEXT = (
    'UPPER("rolls_rollentry"."character_name" || \' \' || "rolls_rollentry"."username"'
    ' || \' \' || "rolls_rollentry"."label" || \' \' || "rolls_rollentry"."breakdown"'
    ' || \' \' || "rolls_rollentry"."detail" || \' \' || "rolls_rollentry"."outcome_label")'
)


# The shortest word the trigram index can narrow.
TRIGRAM = 3


def _in_some_column(word: str) -> RawSQL:
    """PostgreSQL: "one of the six columns holds ``word``", which the trigram index answers. Only
    ever a necessary condition beside the exact one, which decides (readers, columns)."""
    pattern = "%" + word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    # SEARCH_TEXT is this module's constant; the word is a parameter.
    return RawSQL(f"{SEARCH_TEXT} LIKE UPPER(%s)", [pattern], output_field=BooleanField())  # noqa: S611


# ---------------------------------------------------------------------------------------------
def _has_pieces(word: str) -> RawSQL:
    """PostgreSQL: "the joined text has every one- and two-letter piece of ``word``", which the
    index of migration 0021 answers; for a word of one or two letters, a necessary condition of
    its being in the text (beside the exact rule, which decides)."""
    return RawSQL(  # noqa: S611 — SEARCH_TEXT is this module's constant; the word a parameter
        f"rolls_search_grams({SEARCH_TEXT}) @> rolls_search_grams(UPPER(%s))",
        [word],
        output_field=BooleanField(),
    )


def _said(word: str, campaign_id: int, *, indexed: bool) -> Q | RawSQL:
    """A committed text (hash version 6) holds ``word``: the texts live beside the chain
    (log/models/texts.py), out of the joined search text; on PostgreSQL their own trigram
    index (migration log.0003) answers. A removed text holds nothing.

    On PostgreSQL the entries come as ``id = ANY(ARRAY(…))``: the texts' ids are read once, and
    or'd with the trigram condition both are index scans (a BitmapOr). As ``id IN (…)`` the
    sub-select made PostgreSQL walk the whole campaign for a word no entry holds: 336 ms instead
    of 4 at 200,000 entries."""
    texts = EntryText.objects.filter(entry__campaign_id=campaign_id, text__icontains=word)
    found = texts.exclude(salt="").values("entry_id")
    if not indexed:
        return Q(pk__in=found)
    sql, params = found.query.sql_with_params()
    # S611: the SQL is Django's own compilation of the query above, the word a parameter.
    return RawSQL(  # noqa: S611
        f'"{RollEntry._meta.db_table}"."id" = ANY(ARRAY({sql}))',
        params,
        output_field=BooleanField(),
    )


# ---------------------------------------------------------------------------------------------
# Filters and search
# ---------------------------------------------------------------------------------------------


ANY_SUCCESS, ANY_FAILURE = "any_success", "any_failure"


# The dates a filter takes. Python's dates end at 9999-12-31, and a day's bounds are shifted by
# the time zone and by a day ("To" is inclusive), so the extremes overflowed (a 500); no roll is
# older than the app or millennia ahead.
DATE_MIN, DATE_MAX = date(1900, 1, 1), date(9998, 12, 31)


class LogFilterForm(forms.Form):
    """The log's GET form. Always bound (to the query string); a field with a bad value reports it
    beside the field and is left out of the filter, so the rest still applies."""

    q = forms.CharField(
        label="Search",
        required=False,
        max_length=200,
        help_text="Character, player, skill, pool, outcome or detail; every word must match.",
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )
    character = forms.TypedChoiceField(label="Character", required=False, coerce=int)
    player = forms.TypedChoiceField(label="Player", required=False, coerce=int)
    skill = forms.ChoiceField(label="Skill", required=False)
    outcome = forms.ChoiceField(label="Outcome", required=False)
    date_from = forms.DateField(
        label="From",
        required=False,
        widget=forms.DateInput(attrs={"type": "date", "min": DATE_MIN, "max": DATE_MAX}),
    )
    date_to = forms.DateField(
        label="To",
        required=False,
        widget=forms.DateInput(attrs={"type": "date", "min": DATE_MIN, "max": DATE_MAX}),
    )
    session = forms.TypedChoiceField(label="Session", required=False, coerce=int)
    # A scene of the chosen session: set by the log's scene links, never drawn as a field (a
    # change of session drops it). A scene the session doesn't have is reported on "session".
    scene = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(
        self,
        data: QueryDict,
        *,
        campaign: Campaign,
        membership: Membership,
        composer: bool = False,
        **kwargs: Any,
    ) -> None:
        """``composer``: the log page's, which also reads the message composer's choices in the
        same query (``composer_choices``)."""
        super().__init__(data, **kwargs)
        self.campaign, self.membership = campaign, membership
        choices, markers = self._read_choices(campaign, membership, composer=composer)
        # Declared above as choice fields; self.fields only knows them as fields.
        character, player, skill, outcome = (
            cast(forms.ChoiceField, self.fields[name])
            for name in ("character", "player", "skill", "outcome")
        )
        # The newest sessions, and the chosen one with its scenes, newest first.
        self.sessions = sessions_of(markers)
        if self.sessions:
            cast(forms.ChoiceField, self.fields["session"]).choices = [
                ("", "All sessions"),
                *((item.state.session, item.state.name) for item in self.sessions),
            ]
        elif "session" in self.fields and not self.data.get("session"):
            # Nothing to choose: no field (a session asked for still gets "no such session").
            del self.fields["session"], self.fields["scene"]
        character.choices = [("", "All characters"), *choices["character"]]
        player.choices = [("", "Everyone"), *choices["player"]]
        # (A session marker's label is empty, so it is never one: rolls/sessions/actions.py.)
        labels = RollEntry.objects.visible_to(membership).filter(campaign=campaign).labels()
        skill.choices = [("", "All skills")] + [(label, label) for label in labels]
        outcome.choices = [
            ("", "All outcomes"),
            (ANY_SUCCESS, "Any success"),
            (ANY_FAILURE, "Any other outcome"),
        ] + [(code, OUTCOME_LABELS[code]) for code in rule_system_of(campaign).results.log_outcomes]

    def _read_choices(
        self, campaign: Campaign, membership: Membership, *, composer: bool
    ) -> tuple[dict[str, list[tuple[int, str]]], list[tuple[int, str, str]]]:
        """The character and player choices, and the session markers, in one query (a UNION);
        with ``composer``, the message composer's choices too (``composer_choices``)."""
        # Only what the member may know: no hidden NPC for a player, no skill of a roll they may
        # not know exists.
        # Characters, players and the session markers in one query (a UNION), skills in another
        # (a loose index scan that stays fast at a million entries): the log page's query budget
        # is six.
        characters = (
            Character.objects.visible_to(membership)
            .order_by()
            .annotate(choice=Value("character"))
            .values_list("choice", "name", "pk")
        )
        players = (
            Membership.objects.filter(campaign=campaign)
            .order_by()
            .annotate(choice=Value("player"))
            .values_list("choice", "user__username", "user_id")
        )
        parts = [players]
        if composer:
            parts += [speaker_rows(membership), recipient_rows(membership)]
        if "session" in self.fields:
            # A number that is none (the field says so) asks for no session's markers.
            chosen = self.data.get("session")
            parts.append(marker_rows(campaign.pk, parse_id(chosen) if chosen else None))
        choices: dict[str, list[tuple[int, str]]] = {"character": [], "player": []}
        markers, composing = [], []
        for kind, name, pk in characters.union(*parts, all=True).order_by("choice", "name", "pk"):
            if kind in choices:
                choices[kind].append((pk, name))
            elif kind in ("speaker", "recipient"):
                composing.append((kind, name, pk))
            else:
                markers.append((pk, kind, name))
        self.composer_choices = split_choices(composing) if composer else None
        return choices, markers

    def character_choices(self) -> list[tuple[object, str]]:
        """The character field's choices: ("", "All characters"), then (pk, name) of every
        character the member may read."""
        # Set in __init__ as a list of pairs; the stubs type ``choices`` more loosely.
        return cast(
            list[tuple[object, str]], cast(forms.ChoiceField, self.fields["character"]).choices
        )

    def _clean_date(self, name: str) -> date | None:
        value = self.cleaned_data.get(name)
        if value is not None and not DATE_MIN <= value <= DATE_MAX:
            raise forms.ValidationError(
                f"Enter a date from {DATE_MIN:%-d %B %Y} to {DATE_MAX:%-d %B %Y}.", code="range"
            )
        return value

    def clean_date_from(self) -> date | None:
        return self._clean_date("date_from")

    def clean_date_to(self) -> date | None:
        return self._clean_date("date_to")

    def clean(self) -> dict[str, Any]:
        super().clean()  # Form.clean() answers cleaned_data
        data = self.cleaned_data
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", "“To” is before “From”; both dates are ignored.")
            data.pop("date_from", None)
        self._clean_scene(data)
        return data

    def _clean_scene(self, data: dict[str, Any]) -> None:
        """A scene only within a session, and one that session has: otherwise the whole
        session (or, without one, the whole log) is shown, and the session field says why."""
        scene, session = data.get("scene"), data.get("session")
        if scene is None:
            return
        if session is None:
            data.pop("scene")
            return
        item = self.session_item()
        if item is None or item.span(scene) is None:
            self.add_error(
                "session", f"Session {session} has no scene {scene}: showing the whole session."
            )
            data.pop("scene")
            data["session"] = session  # add_error dropped it; the session itself is fine

    def session_item(self) -> SessionItem | None:
        """The chosen session, with its scenes (from the list already read: no query)."""
        number = getattr(self, "cleaned_data", {}).get("session")
        return next((i for i in self.sessions if i.state.session == number), None)

    @property
    def active(self) -> dict[str, Any]:
        """The valid, non-empty filters (a field with an error is not among them)."""
        if not hasattr(self, "cleaned_data"):
            self.is_valid()
        return {k: v for k, v in self.cleaned_data.items() if v not in (None, "")}

    def time_range(self) -> tuple[datetime | None, datetime | None]:
        """The dates as [start, end): the first moment of "From" and of the day after "To", in
        the current time zone (None where no date is set)."""
        f, tz = self.active, timezone.get_current_timezone()
        start = end = None
        if "date_from" in f:
            start = datetime.combine(f["date_from"], time.min, tzinfo=tz)
        if "date_to" in f:
            end = datetime.combine(f["date_to"] + timedelta(days=1), time.min, tzinfo=tz)
        return start, end

    def apply[QS: QuerySet[Model]](self, entries: QS, *, dates: bool = True) -> QS:
        """``entries`` (the member's visible entries) narrowed by every valid filter (but the
        dates with ``dates=False``: the statistics read them from day tallies)."""
        f = self.active
        # ``readable`` is visible_to's per-row answer to "may this member see the figures?".
        readable = Q(readable=True)
        if "character" in f:
            entries = entries.filter(character_id=f["character"])
        if "player" in f:
            entries = entries.filter(user_id=f["player"])
        if "skill" in f:
            entries = entries.filter(label=f["skill"])
        if "outcome" in f:
            outcome = f["outcome"]
            if outcome == ANY_SUCCESS:
                figures = Q(outcome__in=RollEntry.SUCCESS_OUTCOMES)
            elif outcome == ANY_FAILURE:
                figures = ~Q(outcome__in=RollEntry.SUCCESS_OUTCOMES)
            else:
                figures = Q(outcome=outcome)
            # An outcome is a figure: a placeholder never matches, whatever its hidden outcome.
            entries = entries.filter(figures & readable)
        entries = self._in_session(entries, f)
        start, end = self.time_range() if dates else (None, None)
        if start is not None:
            entries = entries.filter(created_at__gte=start)
        if end is not None:
            entries = entries.filter(created_at__lt=end)
        indexed = connections[entries.db].vendor == "postgresql"
        for word in f.get("q", "").split()[:SEARCH_MAX_WORDS]:
            known = (
                Q(character_name__icontains=word)
                | Q(username__icontains=word)
                | Q(label__icontains=word)
            )
            # A message's text (version 6) is beside the chain, out of the entries' own text.
            said = _said(word, self.campaign.pk, indexed=indexed)
            # A word of one or two letters has no trigram: the trigram index can't narrow it
            # (asking it anyway costs a pass over the whole index); the pieces index does.
            if indexed and len(word) >= TRIGRAM:
                # known OR (figures AND readable) is the same as: some column holds the word AND
                # (known OR readable). Written so, the trigram index answers the first half, and
                # PostgreSQL estimates the whole from the index's statistics: a common word then
                # reads the campaign newest first and stops at the page's end, a rare one takes
                # the index (multiplying six guessed LIKE selectivities made every word look rare).
                # For the GM ``readable`` is true and the second half drops out.
                entries = entries.filter(
                    (_in_some_column(word) & (known | readable)) | (said & readable)
                )
                continue
            in_figures = (
                Q(breakdown__icontains=word)
                | Q(detail__icontains=word)
                | Q(outcome_label__icontains=word)
                | said
            )
            if indexed:
                entries = entries.filter(_has_pieces(word) | said)
            entries = entries.filter(known | (in_figures & readable))
        return entries

    def _in_session[QS: QuerySet[Model]](self, entries: QS, f: dict[str, Any]) -> QS:
        """The chosen session's (or scene's) entries: those between its markers in the chain."""
        item = self.session_item() if "session" in f else None
        return entries if item is None else item.narrow(entries, f.get("scene"))

    def summary(self) -> list[str]:
        """The active filters in a few words each, for the folded filter bar ("alice · Success ·
        from 1 Dec"). Names come from the choices already loaded: no query."""
        f = self.active
        parts = []
        if f.get("q"):
            parts.append(f"“{f['q']}”")
        for name in ("session", "character", "player", "skill", "outcome"):
            if name in f:
                field = cast(forms.ChoiceField, self.fields[name])
                # Set in __init__ as a list of pairs; the stubs type ``choices`` more loosely.
                choices = cast(list[tuple[object, object]], field.choices)
                labels = {str(value): str(label) for value, label in choices}
                parts.append(labels.get(str(f[name]), str(f[name])))
        item = self.session_item() if "scene" in f else None
        scene = next((s for s in item.scenes if s.number == f["scene"]), None) if item else None
        if scene is not None:
            parts.append(scene.state.scene_name)
        this_year = timezone.localdate().year
        for name, word in (("date_from", "from"), ("date_to", "to")):
            if name in f:
                day: date = f[name]
                shown = f"{day.day} {day:%b}" if day.year == this_year else f"{day.day} {day:%b %Y}"
                parts.append(f"{word} {shown}")
        return parts

    def querydict(self) -> QueryDict:
        """The active filters as query parameters (for links that keep them)."""
        params = QueryDict(mutable=True)
        for name in self.fields:
            value = self.data.get(name, "")
            if value and name in self.active:
                params[name] = value
        return params


class StatsFilterForm(LogFilterForm):
    """The log's filters for the statistics page, without the search: the statistics add up
    ``Trial`` rows (log/models/trials.py), which carry the filtered columns but no words; and
    without the sessions, whose markers the tallies by day know nothing of."""

    q = None  # type: ignore[assignment]  # a declared field removed, as Django's forms allow
    session = None  # type: ignore[assignment]
    scene = None  # type: ignore[assignment]


def filtered_entries(
    request: AuthenticatedHttpRequest,
    campaign: Campaign,
    membership: Membership,
    *,
    composer: bool = False,
) -> tuple[LogFilterForm, RollEntryQuerySet]:
    form = LogFilterForm(request.GET, campaign=campaign, membership=membership, composer=composer)
    form.is_valid()
    entries = form.apply(RollEntry.objects.visible_to(membership).filter(campaign=campaign))
    return form, entries
