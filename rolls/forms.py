"""Roll panels: one form per system that validates the options, asks the engine for the pool and
the odds, and turns an engine roll into the fields of a log entry.

No rule lives here. Every pool, reading and chance comes from ``rolls.rules``; this module only
words it (the breakdown "3 base + 2 Athletics + 1 Strength = 6d6 vs CL 3") and accounts for the
resources the engine says a choice costs.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django import forms

from rolls.models import OUTCOME_LABELS, Assist, Kind, Visibility
from rolls.rules import cogent, cold_stars, dad6
from rolls.targets import Target
from sheets import ranges
from sheets.models import CUSTOM_WEAPON, Character, ColdStarsAbility, System

# Display order of the odds bands, best first.
BAND_ORDER = (
    "critical_success",
    "success",
    "costly_success",
    "choice",
    "failure",
    "critical_failure",
)
CERTAIN = Fraction(1)
WEAPON_BONUS_MIN, WEAPON_BONUS_MAX = ranges.COGENT_WEAPON_BONUS_MIN, ranges.COGENT_WEAPON_BONUS_MAX


class Refused(Exception):
    """A roll or follow-up the rules or the character's resources do not allow; nothing is written.
    The message is shown to the player as is."""


def percent(chance: Fraction) -> str:
    """A chance for people: one decimal, never "0.0%" for a possible outcome nor "100.0%" for an
    uncertain one."""
    if chance == 0:
        return "0%"
    if chance == 1:
        return "100%"
    value = chance * 100
    if value < Fraction(1, 10):
        return "<0.1%"
    if value > Fraction(999, 10):
        return ">99.9%"
    return f"{float(value):.1f}%"


def fraction_text(chance: Fraction) -> str:
    return f"{chance.numerator}/{chance.denominator}"


@dataclass(frozen=True)
class Band:
    code: str
    label: str
    chance: Fraction
    x: int  # left edge on a 0–1000 scale, for the SVG bar
    width: int

    @property
    def percent(self) -> str:
        return percent(self.chance)

    @property
    def exact(self) -> str:
        return fraction_text(self.chance)


def bands(odds: dict[str, Fraction]) -> list[Band]:
    """The engine's odds as ordered bands with bar geometry. Edges are rounded cumulatively, so
    the widths always add up to the full bar."""
    result, cumulative = [], Fraction(0)
    for code in BAND_ORDER:
        chance = odds.get(code, Fraction(0))
        if not chance:
            continue
        left = round(cumulative * 1000)
        cumulative += chance
        result.append(
            Band(code, OUTCOME_LABELS[code], chance, left, round(cumulative * 1000) - left)
        )
    return result


@dataclass(frozen=True)
class Action:
    name: str  # "roll", "auto_pass", "skip": the value of the submit button
    label: str
    primary: bool = True


@dataclass(frozen=True)
class Choice:
    """One Cold Stars step-4 option in the side-by-side comparison."""

    value: str
    label: str
    cost: str
    pool: str
    bands: list[Band]
    problem: str  # why it can't be chosen now; empty when it can


@dataclass
class Plan:
    """What the panel shows before the roll, and everything the entry will record."""

    options: dict[str, Any]
    pool: dict[str, Any]
    breakdown: str
    bands: list[Band]
    actions: list[Action]
    notes: list[str] = field(default_factory=list)
    choices: list[Choice] = field(default_factory=list)


@dataclass
class Outcome:
    """The fields of one new log entry, apart from campaign, character, user and chain."""

    kind: str
    options: dict[str, Any]
    pool: dict[str, Any]
    breakdown: str
    faces: list[dict[str, Any]]
    outcome: str
    detail: str
    result: dict[str, Any]
    odds: Fraction
    resource_changes: dict[str, int]
    # Every outcome's chance at roll time; None for outcomes that were certain (no dice rolled).
    odds_table: dict[str, Fraction] | None = None

    def fields(self) -> dict[str, Any]:
        table = self.odds_table or {self.outcome: self.odds}
        return {
            "kind": self.kind,
            "options": self.options,
            "pool": self.pool,
            "breakdown": self.breakdown,
            "faces": self.faces,
            "outcome": self.outcome,
            "outcome_label": OUTCOME_LABELS[self.outcome],
            "detail": self.detail,
            "result": self.result,
            "odds": fraction_text(self.odds),
            "odds_display": percent(self.odds),
            "odds_table": {band: fraction_text(p) for band, p in table.items() if p},
            "resource_changes": {k: v for k, v in self.resource_changes.items() if v},
        }


def _terms(parts: list[tuple[int, str]]) -> str:
    """[(3, "base"), (2, "Athletics"), (-1, "injury")] → "3 base + 2 Athletics − 1 injury"."""
    words = ""
    for i, (value, name) in enumerate(parts):
        if i and not value:
            continue
        sign = "−" if value < 0 else "+"
        words += f"{value} {name}" if not i else f" {sign} {abs(value)} {name}"
    return words


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _same_value(field: forms.Field, sent: Any, fixed: Any) -> bool:
    """Whether ``sent`` (as submitted) cleans to the same value as ``fixed`` through ``field``
    ("04" and 4 are the same Risk; "abc" is no Risk at all)."""
    probe = copy.copy(field)
    probe.disabled = False
    try:
        return probe.clean(sent) == probe.clean(fixed)
    except forms.ValidationError:
        return False


def _shown(field: forms.Field, value: Any) -> str:
    """A field's value as the panel words it (a choice's label without its figures)."""
    for choice, label in getattr(field, "choices", ()):
        if str(choice) == str(value):
            return str(label).split(" (")[0]
    return str(value)


class RollForm(forms.Form):
    """Shared by the three panels. ``target`` is the sheet row, ``sheet`` its sheet as loaded."""

    system: str = ""

    visibility = forms.ChoiceField(
        label="Who sees the result",
        choices=Visibility.choices,
        initial=Visibility.PUBLIC,
        required=False,  # left out (an odds request, a bookmarked panel URL) means public
    )

    def __init__(
        self,
        data: Any = None,
        *,
        target: Target,
        sheet: Any,
        gm: bool = False,
        preset: dict[str, Any] | None = None,
        locked: Iterable[str] = (),
        in_contest: bool = False,
    ) -> None:
        super().__init__(data, auto_id="roll_%s")
        self.target = target
        self.sheet = sheet
        self.gm = gm
        # The roll is one side of a GM's contest: rules that differ in a contest read this.
        self.in_contest = in_contest
        if target.character.campaign.force_public_rolls:
            # The campaign setting wins: no choice to offer, and a crafted POST can't add one.
            del self.fields["visibility"]
        elif not gm:
            self.fields["visibility"].choices = [
                c for c in Visibility.choices if c[0] != Visibility.SECRET
            ]
        self.plan: Plan | None = None
        self.choices: list[Choice] = []  # Cold Stars: every step-4 option, side by side
        self.locked: set[str] = set()
        self.setup()
        self.apply_preset(preset or {}, set(locked))

    def apply_preset(self, values: dict[str, Any], locked: set[str]) -> None:
        """Prefill options set by the GM (a call for a roll, a contest). A locked field is disabled
        (Django cleans it to the GM's value), and :meth:`clean` refuses a request that submits
        another value for it: a browser never sends a disabled field, so only a crafted request
        does, and it should hear no rather than have its roll quietly differ from what it sent."""
        for name, value in values.items():
            if name in self.fields:
                self.fields[name].initial = value
                if name in locked:
                    self.fields[name].disabled = True
                    self.fields[name].help_text = "Set by the GM."
                    self.locked.add(name)

    def setup(self) -> None:
        """Adjust fields to the target and sheet (initial values, disabled options)."""

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name in sorted(self.locked):
            field = self.fields[name]
            sent = field.widget.value_from_datadict(self.data, self.files, self.add_prefix(name))
            if sent in (None, "") or _same_value(field, sent, field.initial):
                continue
            self.add_error(
                name,
                f"The GM set {field.label} to {_shown(field, field.initial)} for this roll; "
                "it can't be changed.",
            )
        return data

    def full_clean(self) -> None:
        super().full_clean()
        if self.is_bound and not self._errors:
            try:
                self.plan = self.make_plan()
            except ValueError as exc:  # the engine refused the combination, in GM words
                self.add_error(None, str(exc))
                self.plan = None

    @property
    def chosen_visibility(self) -> str:
        return self.cleaned_data.get("visibility") or Visibility.PUBLIC

    @classmethod
    def with_defaults(
        cls, *, target: Target, sheet: Any, gm: bool = False, **presets: Any
    ) -> RollForm:
        """The panel as first opened: bound to its initial values, so the odds show at once."""
        blank = cls(target=target, sheet=sheet, gm=gm, **presets)
        data = {}
        for name, bound in blank.fields.items():
            value = blank.get_initial_for_field(bound, name)
            if value is not None and value is not False and value != "":
                data[name] = value
        return cls(data, target=target, sheet=sheet, gm=gm, **presets)

    def next_roll_data(self, data: Any, sheet: Any) -> Any:
        """The options a panel shows after a roll, given the sheet as it now is: ``data`` less
        any choice the resources no longer cover (it would be refused if rolled again)."""
        return data

    def make_plan(self) -> Plan:
        raise NotImplementedError

    def roll(self, action: str, sheet: Any, rng: Any) -> Outcome:
        """Carry out ``action`` against the *locked* ``sheet``; raise :class:`Refused` when the
        resources don't allow it (the caller's transaction then writes nothing)."""
        raise NotImplementedError

    def _base_options(self) -> dict[str, Any]:
        return {"target": self.target.kind, "target_id": self.target.obj.pk}


# ---------------------------------------------------------------------------------------------
# Cogent Roleplay
# ---------------------------------------------------------------------------------------------


VOCATION_KIND = "cogent-vocation"  # a vocation row: it assists, it is never rolled on its own


class CogentRollForm(RollForm):
    system = System.COGENT

    challenge_level = forms.TypedChoiceField(
        label="Challenge Level",
        coerce=int,
        choices=[(cl, f"{cl} — {name}") for cl, name in cogent.CHALLENGE_LEVELS.items()],
        initial=cogent.CL_MIN,
    )
    extra_penalty = forms.IntegerField(
        label="Extra penalty dice",
        min_value=0,
        max_value=ranges.COGENT_PENALTY_MAX,
        initial=0,
        help_text="Dice removed for this roll only.",
    )
    weapon = forms.ChoiceField(
        label="Weapon",
        choices=[(name, f"{name} ({bonus:+d})") for name, bonus in cogent.WEAPON_BONUSES.items()]
        + [(CUSTOM_WEAPON, "Other (enter the bonus)")],
        required=False,
    )
    weapon_bonus = forms.IntegerField(
        label="Other weapon bonus",
        min_value=WEAPON_BONUS_MIN,
        max_value=WEAPON_BONUS_MAX,
        required=False,
        help_text="Ranged weapons and the like.",
    )
    destiny_before = forms.BooleanField(
        label=f"Spend a destiny point first ({cogent.DESTINY_WIN_FACE}–6 win)", required=False
    )
    circumstances = forms.MultipleChoiceField(
        label="Combat circumstances",
        choices=[
            (key, f"{label} (+{dice})")
            for key, (label, dice) in cogent.COMBAT_CIRCUMSTANCES.items()
        ],
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text="Bonus dice for the situation of the fight.",
    )
    equipment = forms.IntegerField(
        label="Unequal equipment",
        min_value=cogent.EQUIPMENT_MIN,
        max_value=cogent.EQUIPMENT_MAX,
        initial=0,
        required=False,  # left out means none
        help_text=f"Dice the GM adds or removes for the tools at hand "
        f"({cogent.EQUIPMENT_MIN:+d} to {cogent.EQUIPMENT_MAX:+d}).",
    )
    duress = forms.BooleanField(
        label="Under duress",
        required=False,
        help_text="Rushed or threatened: no automatic pass for a big pool.",
    )
    contested = forms.BooleanField(
        label="Contested",
        required=False,
        help_text="Someone works against it: no automatic pass for a big pool.",
    )
    reflexive = forms.BooleanField(
        label="Reflexive (a failure injures)",
        required=False,
        help_text="A saving throw: a failure injures by CL − wins (at most 5), no automatic pass.",
    )
    assist_for = forms.TypedChoiceField(
        label="Roll as an assist for",
        coerce=int,
        empty_value=None,
        required=False,
        help_text=f"Against CL {cogent.ASSIST_MIN_CL} or more: wins above the CL add to that "
        "character's next action, a shortfall subtracts.",
    )
    use_assist = forms.BooleanField(label="Take the waiting assist", required=False, initial=True)

    def setup(self) -> None:
        self._setup_assists()
        if self.target.is_combat:
            # The weapon stored with the combat skill, so the panel's default pool is the sheet's.
            row = self.target.obj
            self.fields["weapon"].required = True
            for name, value in default_weapon(row).items():
                self.fields[name].initial = value
        else:
            # Rules at the table: the combat circumstances apply to combat rolls only.
            del self.fields["weapon"], self.fields["weapon_bonus"], self.fields["circumstances"]
        if self.sheet.destiny_points < cogent.DESTINY_COST:
            # Shown disabled, but still read: a request asking for it is refused in clean(),
            # never rolled without the destiny it asked for.
            self.fields["destiny_before"].widget.attrs["disabled"] = True
            self.fields["destiny_before"].help_text = "You have no destiny points left."
        else:
            self.fields[
                "destiny_before"
            ].help_text = f"You have {self.sheet.destiny_points} of {cogent.DESTINY_MAX}."

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("weapon") == CUSTOM_WEAPON and data.get("weapon_bonus") is None:
            self.add_error("weapon_bonus", "Enter the weapon's bonus dice.")
        try:
            cogent.circumstance_dice(data.get("circumstances") or [])
        except ValueError as exc:
            self.add_error("circumstances", str(exc))
        if data.get("destiny_before") and self.sheet.destiny_points < cogent.DESTINY_COST:
            self.add_error(
                "destiny_before", "You have no destiny points left to spend before the roll."
            )
        self._clean_assists(data)
        return data

    def _setup_assists(self) -> None:
        """Assists (Book, assists.tex): this row may assist another character of the campaign,
        and an assist rolled for this character waits for its next action."""
        character = self.target.character
        others = Character.objects.filter(campaign_id=character.campaign_id).exclude(
            pk=character.pk
        )
        if not self.gm:
            others = others.filter(hidden_from_players=False)
        others = others.order_by("name", "pk")
        # Book: an assist may help the assister's own next roll ("whether their own or another
        # player's" — the Martial Artist example) as well as someone else's.
        own = [(character.pk, f"{character.name} (this character's own next action)")]
        # A callable: read only when the panel is drawn or an assist is asked for, not on every roll.
        # Rules at the table: a vocation only assists (Book, vocations.tex), so its panel has no
        # "roll of its own".
        alone = [] if self.assist_only else [("", "Nobody: this is a roll of its own")]
        self.fields["assist_for"].choices = lambda: (
            alone + own + [(other.pk, other.name) for other in others]
        )
        if self.assist_only:
            first = others.first()
            self.fields["assist_for"].initial = first.pk if first else character.pk
            self.fields["assist_for"].error_messages["required"] = (
                "A vocation only assists: choose whom this roll helps."
            )
            self.fields["challenge_level"].initial = cogent.ASSIST_MIN_CL
            self.fields["assist_for"].required = True
            self.fields["assist_for"].help_text = (
                "A vocation only assists: its rating helps another roll (or this character's "
                f"own next one), against CL {cogent.ASSIST_MIN_CL} or more."
            )
        self.assist_target: Character | None = None
        self.waiting_assist: Assist | None = None
        if not self.in_contest or cogent.ASSISTS_IN_CONFLICTS:
            self.waiting_assist = Assist.objects.waiting_for(character).first()
        if self.waiting_assist is None:
            del self.fields["use_assist"]
        else:
            waiting = self.waiting_assist
            self.fields[
                "use_assist"
            ].label = f"Take {waiting.by_name}'s assist ({waiting.wins_text})"
            self.fields[
                "use_assist"
            ].help_text = "It waits for this character's next action; untick to keep it for later."

    @property
    def assist_only(self) -> bool:
        return self.target.kind == VOCATION_KIND

    def _clean_assists(self, data: dict[str, Any]) -> None:
        for_pk = data.get("assist_for")
        if self.waiting_assist is None and self.data.get("use_assist"):
            # Asked for an assist that was used or dropped since the panel opened: say so rather
            # than roll without the wins the roller counted on.
            self.add_error(
                None, "The assist was used or dropped a moment ago; check the odds again."
            )
        if data.get("use_assist") and data.get("visibility") not in (None, "", Visibility.PUBLIC):
            # Decision: the roll that takes a (public) assist is public too. Otherwise the
            # assist's wait ending, or a second assist becoming possible, would tell the assister
            # that a hidden roll was made.
            self.add_error(
                "use_assist",
                "A roll that takes an assist is public, like the assist; untick it to roll hidden.",
            )
        if data.get("use_assist") and data.get("contested") and not cogent.ASSISTS_IN_CONFLICTS:
            self.add_error("use_assist", "An assist applies to an action, not to a contested roll.")
        if for_pk is None:
            return
        target = Character.objects.filter(pk=for_pk, campaign_id=self.target.character.campaign_id)
        self.assist_target = target.first()
        if self.assist_target is None:  # a crafted value: the choices list only the campaign's
            self.add_error("assist_for", "Choose a character of this campaign.")
            return
        if data.get("use_assist"):
            self.add_error(
                "use_assist", "An assist roll doesn't take an assist itself; untick this."
            )
        cl = data.get("challenge_level")
        if cl is not None:
            try:
                cogent.check_assist_cl(cl)
            except ValueError as exc:
                self.add_error("challenge_level", str(exc))
        if self.target.character.hidden_from_players or self.assist_target.hidden_from_players:
            # Decision: an assist is public (the main roll's odds and result show it), so a
            # hidden NPC can neither give nor take one without naming itself to the players.
            self.add_error("assist_for", "A hidden NPC neither gives nor takes assists.")
        if data.get("visibility", Visibility.PUBLIC) not in ("", Visibility.PUBLIC):
            self.add_error(
                "visibility",
                "An assist is rolled in public: the assisted roll's odds and result show it.",
            )
        if Assist.objects.waiting_for(self.assist_target).exists():
            self.add_error(
                "assist_for",
                f"An assist already waits for {self.assist_target.name}; it is used by their "
                "next action or dropped from their sheet first.",
            )

    def next_roll_data(self, data: Any, sheet: Any) -> Any:
        if "assist_for" in data or "use_assist" in data:
            # An assist rolled or taken is done with: the next roll starts without either.
            data = data.copy()
            data.pop("assist_for", None)
            data.pop("use_assist", None)
        if sheet.destiny_points >= cogent.DESTINY_COST or "destiny_before" not in data:
            return data
        data = data.copy()
        del data["destiny_before"]
        return data

    def _weapon(self) -> tuple[str, int]:
        name = self.cleaned_data.get("weapon") or ""
        if not self.target.is_combat:
            return "", 0
        if name == CUSTOM_WEAPON:
            return "weapon", self.cleaned_data["weapon_bonus"]
        return name, cogent.WEAPON_BONUSES[name]

    def make_plan(self) -> Plan:
        d, sheet, row = self.cleaned_data, self.sheet, self.target.obj
        cl, extra = d["challenge_level"], d["extra_penalty"]
        weapon, bonus = self._weapon()
        circumstances = list(d.get("circumstances") or [])
        equipment = d.get("equipment") or 0
        attribute = None if self.target.is_combat else row.attribute
        pool, terms = cogent_pool(
            sheet,
            row,
            combat=self.target.is_combat,
            weapon=(weapon, bonus),
            circumstances=circumstances,
            equipment=equipment,
            extra=extra,
        )
        breakdown = f"{_terms(terms)} = {pool}d6"
        if sum(value for value, _ in terms) < pool:
            breakdown += " (a pool is never below 0)"
        breakdown += f" vs CL {cl} ({cogent.CHALLENGE_LEVELS[cl]})"
        flags = [name for name in ("duress", "contested", "reflexive") if d[name]]
        if d["destiny_before"]:
            breakdown += f", destiny spent first ({cogent.DESTINY_WIN_FACE}–6 win)"
        if flags:
            breakdown += ", " + ", ".join(
                self.fields[f].label.split(" (")[0].lower() for f in flags
            )
        assist = self._assist_taken()
        if assist is not None:
            breakdown += f", {assist.wins_text} from {assist.by_name}'s assist"
        wins = assist.wins if assist is not None else 0
        odds = cogent.odds(
            pool, challenge_level=cl, destiny_before=d["destiny_before"], assist=wins
        )
        auto = cogent.auto_success(
            pool,
            challenge_level=cl,
            duress=d["duress"],
            contested=d["contested"],
            reflexive=d["reflexive"],
        )
        actions = (
            [Action("auto_pass", "Take the automatic pass"), Action("roll", "Roll anyway", False)]
            if auto
            else [Action("roll", f"Roll {pool}d6")]
        )
        notes = []
        if self.assist_target is not None:
            # An assist is always rolled: its wins above the CL are what it gives.
            auto = False
            actions = [Action("assist", f"Roll {pool}d6 to assist {self.assist_target.name}")]
            notes.append(
                f"Wins above CL {cl} add to {self.assist_target.name}'s next action, a shortfall "
                f"subtracts; at most {cl} either way. Success below means the assist does no harm."
            )
        elif assist is not None:
            notes.append(
                f"{assist.by_name}'s assist: {assist.wins_text} on this roll (odds included)."
            )
        if auto:
            notes.append(
                f"Skill speciality: {pool} dice against CL {cl} pass without rolling "
                "(unless you choose to roll)."
            )
        options = self._base_options() | {
            "challenge_level": cl,
            "injury_dice": sheet.injury_dice_on(attribute),
            "disability_dice": sheet.disability_dice_on(attribute),
            "penalty_dice": sheet.penalty_dice,
            "extra_penalty": extra,
            "destiny_before": d["destiny_before"],
            "duress": d["duress"],
            "contested": d["contested"],
            "reflexive": d["reflexive"],
            "rating": row.rating,
        }
        if circumstances:
            options["circumstances"] = circumstances
        if equipment:
            options["equipment"] = equipment
        if self.target.is_combat:
            options |= {"weapon": weapon, "weapon_bonus": bonus}
        else:
            options["attribute"] = row.attribute
        if self.assist_target is not None:
            options["assist_for"] = self.assist_target.name
        elif assist is not None:
            # Linked by the assist entry's hash, as exports link entries: never a raw pk.
            options["assist"] = {
                "by": assist.by_name,
                "wins": assist.wins,
                "entry_hash": assist.entry.hash,
            }
        return Plan(options, {"dice": pool}, breakdown, bands(odds), actions, notes)

    def roll(self, action: str, sheet: Any, rng: Any) -> Outcome:
        plan = self.plan
        assert plan is not None
        options, pool = dict(plan.options), plan.pool["dice"]
        cl = options["challenge_level"]
        if action == "auto_pass":
            if not any(a.name == "auto_pass" for a in plan.actions):
                raise Refused("This roll doesn't pass automatically; roll the dice.")
            options["destiny_before"] = False  # nothing is rolled, so nothing is spent
            options.pop("assist", None)  # nor is a waiting assist used: it waits on
            return Outcome(
                kind=Kind.AUTO_PASS,
                options=options,
                pool=plan.pool,
                breakdown=plan.breakdown,
                faces=[],
                outcome="success",
                detail=f"Skill speciality: {pool} dice against CL {cl} pass without rolling.",
                result={},
                odds=CERTAIN,
                resource_changes={},
            )
        if (action == "assist") != (self.assist_target is not None):
            raise Refused("Choose whom the assist is for, then roll the assist.")
        changes = spend_destiny_before(sheet) if options["destiny_before"] else {}
        faces = cogent.roll(pool, rng)
        if self.assist_target is not None:
            return self._assist_outcome(options, plan, faces, changes)
        wins = options["assist"]["wins"] if "assist" in options else 0
        result = cogent.resolve(
            faces, challenge_level=cl, destiny_before=options["destiny_before"], assist=wins
        )
        odds = cogent.odds(
            pool, challenge_level=cl, destiny_before=options["destiny_before"], assist=wins
        )
        detail = cogent_detail(result, reflexive=options["reflexive"])
        if wins:
            detail += f" ({wins:+d} from {options['assist']['by']}'s assist)"
        elif "assist" in options:
            detail += f" ({options['assist']['by']}'s assist: no change)"
        return Outcome(
            kind=Kind.ROLL,
            options=options,
            pool=plan.pool,
            breakdown=plan.breakdown,
            faces=cogent_faces(result),
            outcome=result.outcome,
            detail=detail,
            result=cogent_result(result, reflexive=options["reflexive"]),
            odds=odds[result.outcome],
            resource_changes=changes,
            odds_table=odds,
        )

    def _assist_taken(self) -> Assist | None:
        """The waiting assist this roll takes, if the roller keeps it ticked."""
        if self.waiting_assist is None or self.assist_target is not None:
            return None
        return self.waiting_assist if self.cleaned_data.get("use_assist") else None

    def _assist_outcome(
        self, options: dict[str, Any], plan: Plan, faces: tuple[int, ...], changes: dict[str, int]
    ) -> Outcome:
        """The assist entry (Book): wins above the assist's CL help the next action."""
        cl, before = options["challenge_level"], options["destiny_before"]
        value = cogent.assist(faces, challenge_level=cl, destiny_before=before)
        result = cogent.resolve(faces, challenge_level=cl, destiny_before=before)
        odds = cogent.odds(len(faces), challenge_level=cl, destiny_before=before)
        name = options["assist_for"]
        effect = "no change" if not value else f"{value:+d} win{'' if abs(value) == 1 else 's'}"
        detail = (
            f"{_plural(result.rolled_wins, 'win')} vs assist CL {cl}: {effect} for {name}'s "
            "next action"
        )
        return Outcome(
            kind=Kind.ASSIST,
            options=options,
            pool=plan.pool,
            breakdown=plan.breakdown,
            faces=cogent_faces(result),
            outcome=result.outcome,
            detail=detail,
            result=cogent_result(result, reflexive=False) | {"assist": value},
            odds=odds[result.outcome],
            resource_changes=changes,
            odds_table=odds,
        )


def default_weapon(row: Any) -> dict[str, Any]:
    """The panel's weapon for a combat row: the one stored with the combat skill (its bonus too
    for "other"), else the first of the Book's table."""
    if row.weapon == CUSTOM_WEAPON:
        return {"weapon": CUSTOM_WEAPON, "weapon_bonus": row.weapon_bonus}
    return {"weapon": row.weapon or next(iter(cogent.WEAPON_BONUSES))}


def cogent_pool(
    sheet: Any,
    row: Any,
    *,
    combat: bool,
    weapon: tuple[str, int],
    circumstances: Iterable[str],
    equipment: int,
    extra: int,
) -> tuple[int, list[tuple[int, str]]]:
    """A Cogent pool from the sheet and a roll's options, with the terms a breakdown names: one
    reading for the roll panel and a conflict side's roll."""
    circumstances = list(circumstances)
    more = cogent.circumstance_dice(circumstances) + cogent.equipment_dice(equipment)
    terms = [(cogent.BASE_DICE, "base"), (row.rating, row.name)]
    attribute = None if combat else row.attribute
    if combat:
        name, bonus = weapon
        pool = sheet.combat_pool(
            rating=row.rating, weapon_bonus=bonus, extra=extra, bonus_dice=more
        )
        attributes = [sheet.strength, sheet.reflex, sheet.intelligence]
        terms += list(zip(attributes, cogent.ATTRIBUTES, strict=True))
        terms.append((bonus, name))
    else:
        pool = sheet.pool_for_skill(
            rating=row.rating, attribute=row.attribute, extra=extra, bonus_dice=more
        )
        terms.append((sheet.attribute_value(row.attribute), row.get_attribute_display()))
    terms += circumstance_terms(circumstances)
    terms.append((equipment, "unequal equipment"))
    terms += [(-dice, what) for dice, what in sheet.penalties(attribute)]
    terms.append((-extra, "extra penalty"))
    return pool, terms


def spend_destiny_before(sheet: Any) -> dict[str, int]:
    """Spend a destiny point before a Cogent roll on the *locked* sheet; refuse without one."""
    if sheet.destiny_points < cogent.DESTINY_COST:
        raise Refused("You have no destiny points left to spend before the roll.")
    sheet.destiny_points -= cogent.DESTINY_COST
    sheet.save(update_fields=["destiny_points"])
    return {"destiny": -cogent.DESTINY_COST}


def circumstance_terms(circumstances: Iterable[str]) -> list[tuple[int, str]]:
    """A breakdown's words for the combat circumstances: (+2, "high ground")."""
    terms = []
    for key in circumstances:
        label, dice = cogent.COMBAT_CIRCUMSTANCES[key]
        terms.append((dice, label.split(" (")[0].lower()))
    return terms


def cogent_faces(result: cogent.ActionResult) -> list[dict[str, Any]]:
    return [
        {
            "kind": "d6",
            "face": face,
            "reading": "win"
            if cogent.is_win(face, destiny_before=result.destiny_before)
            else "loss",
        }
        for face in result.faces
    ]


def cogent_detail(result: cogent.ActionResult, *, reflexive: bool) -> str:
    wins = _plural(result.wins, "win")
    if result.destiny_after:
        wins += f" ({result.rolled_wins} rolled + {result.destiny_after} destiny)"
    words = f"{wins} vs CL {result.challenge_level}"
    if result.success:
        words += f": success, margin {result.margin}"
    elif result.critical_failure:
        words += ": critical failure, no wins"
    else:
        words += f": failure, short by {-result.margin}"
    if reflexive and not result.success:
        level = result.injury_level
        words += f". Injury level {level} ({cogent.INJURY_LEVELS[level].lower()})"
    return words


def cogent_result(result: cogent.ActionResult, *, reflexive: bool) -> dict[str, Any]:
    figures = {
        "wins": result.wins,
        "rolled_wins": result.rolled_wins,
        "destiny_after": result.destiny_after,
        "margin": result.margin,
    }
    if reflexive and not result.success:
        figures["injury_level"] = result.injury_level
    return figures


# ---------------------------------------------------------------------------------------------
# DAD6
# ---------------------------------------------------------------------------------------------

EXTRA_DICE_FIELDS = (  # (field, singular reason, plural reason)
    ("tools", "tool", "tools"),
    ("helpers", "helper", "helpers"),
    ("advantages", "advantage", "advantages"),
    ("time", "doubled time", "doublings of time"),
)


def _extra_field(label: str, help_text: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=0, max_value=dad6.EXTRA_DICE_MAX, initial=0, help_text=help_text
    )


# The most boons any pool can trade dice for (the largest pool the engine takes, 8 dice a boon); the pool at
# hand allows fewer, checked in Dad6RollForm.clean.
TRADED_BOONS_MAX = dad6.max_traded_boons(dad6.MAX_POOL)


class Dad6RollForm(RollForm):
    system = System.DAD6

    difficulty = forms.IntegerField(
        label="Difficulty (boons needed)",
        min_value=dad6.DIFFICULTY_MIN,
        max_value=dad6.DIFFICULTY_MAX,
        initial=dad6.DIFFICULTY_MIN,
        help_text="1, plus 1 per significant obstacle.",
    )
    task = forms.ChoiceField(
        label="Task",
        choices=[
            (task, f"{task.capitalize()} ({dad6.TASK_MODIFIER[task]:+d} per die)")
            for task in dad6.TASKS
        ],
        initial=dad6.TASKS[0],
    )
    tools = _extra_field("Tools", "+1 die per useful tool.")
    helpers = _extra_field("Helpers", "+1 die per helper.")
    advantages = _extra_field("Advantages", "+1 die per environmental advantage.")
    time = _extra_field(
        "Time doublings",
        "+1 die each time the time spent doubles. Tools, helpers, advantages and time add at most "
        f"{dad6.EXTRA_DICE_MAX} in all.",
    )
    traded_boons = forms.IntegerField(
        label="Boons traded for dice",
        min_value=0,
        max_value=TRADED_BOONS_MAX,
        initial=0,
        help_text=f"Trade {dad6.DICE_PER_TRADED_BOON} dice for 1 automatic boon.",
    )

    @property
    def competence(self) -> str:
        return self.target.obj.effective_competence

    def clean(self) -> dict[str, Any]:
        """The ranges that depend on more than one field, beside the field that breaks them."""
        data = super().clean()
        names = [name for name, _, _ in EXTRA_DICE_FIELDS]
        if any(name not in data for name in names):
            return data  # a reason already has its own message
        extra = 0
        for name in names:
            extra += data[name]
            if extra > dad6.EXTRA_DICE_MAX:
                total = sum(data[n] for n in names)
                self.add_error(
                    name,
                    f"Tools, helpers, advantages and time add at most {dad6.EXTRA_DICE_MAX} dice "
                    f"in all; these add {total}.",
                )
                return data
        if "traded_boons" in data:
            try:
                pool = dad6.pool_size(
                    level=self.sheet.level, competence=self.competence, extra_dice=extra
                )
                dad6.dice_rolled(pool, traded_boons=data["traded_boons"])
            except ValueError as exc:
                self.add_error("traded_boons", str(exc))
        return data

    def make_plan(self) -> Plan:
        d, sheet, row = self.cleaned_data, self.sheet, self.target.obj
        extra = sum(d[name] for name, _, _ in EXTRA_DICE_FIELDS)
        pool = dad6.pool_size(level=sheet.level, competence=self.competence, extra_dice=extra)
        traded, difficulty, task = d["traded_boons"], d["difficulty"], d["task"]
        rolled = dad6.dice_rolled(pool, traded_boons=traded)
        per_die = dad6.die_modifier(competence=self.competence, task=task)
        terms = [(sheet.level, "level")] + [
            (d[name], one if d[name] == 1 else many) for name, one, many in EXTRA_DICE_FIELDS
        ]
        breakdown = f"{_terms(terms)}"
        if self.competence == "unfamiliar":
            breakdown += ", halved for Unfamiliar"
        breakdown += f" = {pool}d6"
        if traded:
            spent = traded * dad6.DICE_PER_TRADED_BOON
            breakdown += f"; {_plural(traded, 'boon')} traded for {spent} dice, {rolled}d6 rolled"
        # Boons rolled forward from an earlier roll: automatic boons of this one, spent by it.
        forward = sheet.forward_boons
        if forward:
            breakdown += f"; +{_plural(forward, 'rolled-forward boon')}"
        breakdown += (
            f"; {self.competence.capitalize()} {task} task: {per_die:+d} per die"
            f" vs Difficulty {difficulty}"
        )
        odds = dad6.odds(
            pool,
            competence=self.competence,
            task=task,
            difficulty=difficulty,
            traded_boons=traded,
            bonus_boons=forward,
        )
        options = self._base_options() | {
            "level": sheet.level,
            "competence": self.competence,
            "class_skill": row.is_class_skill,
            "difficulty": difficulty,
            "task": task,
            **{name: d[name] for name, _, _ in EXTRA_DICE_FIELDS},
            "traded_boons": traded,
            "forward_boons": forward,
        }
        notes = [
            f"{row.name}: {self.competence.capitalize()}"
            + (" (class skill, from the level)" if row.is_class_skill else "")
            + f"; up to {dad6.max_traded_boons(pool)} boons can be traded for these dice."
        ]
        return Plan(
            options,
            {"dice": pool, "rolled": rolled, "traded_boons": traded, "die_modifier": per_die},
            breakdown,
            bands(odds),
            [Action("roll", f"Roll {rolled}d6")],
            notes,
        )

    def roll(self, action: str, sheet: Any, rng: Any) -> Outcome:
        plan = self.plan
        assert plan is not None
        if action != "roll":
            raise Refused("DAD6 rolls are always rolled.")
        o = plan.options
        # The rolled-forward boons are spent on the locked sheet: the odds shown counted them, so a
        # roll that finds a different number (spent or changed a moment ago) is refused.
        if sheet.forward_boons != o["forward_boons"]:
            raise Refused(
                "This character's rolled-forward boons changed a moment ago; check the odds and "
                "roll again."
            )
        changes = {}
        if o["forward_boons"]:
            sheet.forward_boons = 0
            sheet.save(update_fields=["forward_boons"])
            changes["forward_boons"] = -o["forward_boons"]
        faces = dad6.roll(plan.pool["dice"], rng, traded_boons=o["traded_boons"])
        result = dad6.resolve(faces, **dad6_reading(o))
        odds = dad6.odds(plan.pool["dice"], **dad6_reading(o))
        return Outcome(
            kind=Kind.ROLL,
            options=o,
            pool=plan.pool,
            breakdown=plan.breakdown,
            faces=dad6_faces(result),
            outcome=result.outcome,
            detail=dad6_detail(result),
            result=dad6_result(result),
            odds=odds[result.outcome],
            resource_changes=changes,
            odds_table=odds,
        )


def dad6_reading(options: dict[str, Any]) -> dict[str, Any]:
    """The options a DAD6 roll is read with, as ``resolve`` and ``odds`` take them."""
    reading = {key: options[key] for key in ("competence", "task", "difficulty", "traded_boons")}
    # Entries from before rolled-forward boons existed carry none.
    return reading | {"bonus_boons": options.get("forward_boons", 0)}


def dad6_faces(result: dad6.Result) -> list[dict[str, Any]]:
    return [
        {"kind": "d6", "face": face, "value": value, "reading": "boon" if boon else "no_boon"}
        for face, value, boon in zip(result.faces, result.modified, result.boon_dice, strict=True)
    ]


def dad6_detail(result: dad6.Result) -> str:
    words = f"{_plural(result.boons, 'boon')} of {result.difficulty} needed"
    extras = []
    if result.traded_boons:
        extras.append(f"{result.traded_boons} traded for dice")
    if result.bought_boons:
        extras.append(f"{result.bought_boons} bought with a bane")
    if result.bonus_boons:
        extras.append(f"{result.bonus_boons} rolled forward")
    if extras:
        words += f" ({', '.join(extras)})"
    if result.success:
        return words + ": success"
    return words + f": failure, {result.severity} (missed by {result.margin_of_failure})"


def dad6_result(result: dad6.Result) -> dict[str, Any]:
    return {
        "boons": result.boons,
        "margin_of_failure": result.margin_of_failure,
        "severity": result.severity,
        "bought_boons": result.bought_boons,
        "extra_boons": result.extra_boons,
    }


# ---------------------------------------------------------------------------------------------
# Cold Stars
# ---------------------------------------------------------------------------------------------

OUTSIDE_DOMAINS = "__outside__"


def cold_stars_modification(value: str) -> dict[str, Any]:
    """A step-4 radio value → ``modify`` keyword arguments ("willpower-2" → willpower=2)."""
    if value == "press":
        return {"press": True}
    if value == "brace":
        return {"brace": True}
    if value.startswith("willpower-"):
        return {"willpower": int(value.removeprefix("willpower-"))}
    return {}


def _modification_label(value: str) -> str:
    if value.startswith("willpower-"):
        n = int(value.removeprefix("willpower-"))
        return f"Willpower: upgrade {_plural(n, 'Ability die')}"
    return {"none": "No modification", "press": "Press", "brace": "Brace"}[value]


def _cost_words(change: cold_stars.ResourceChange) -> str:
    parts = [
        f"{amount:+d} {name}"
        for amount, name in ((change.momentum, "Momentum"), (change.willpower, "Willpower"))
        if amount
    ]
    return ", ".join(parts).replace("-", "−") or "free"


MODIFICATIONS = ["none", "press", "brace"] + [
    f"willpower-{n}" for n in range(1, cold_stars.POOL_MAX_ABILITY + 1)
]


class ColdStarsRollForm(RollForm):
    system = System.COLD_STARS

    ability = forms.ChoiceField(label="Ability")
    risk = forms.IntegerField(
        label="Risk",
        min_value=cold_stars.RISK_MIN,
        max_value=cold_stars.RISK_MAX,
        initial=cold_stars.RISK_MIN,
        help_text="Set by the GM.",
    )
    domain = forms.ChoiceField(label="Domain", required=False)
    modification = forms.ChoiceField(
        label="Before the roll (choose one)",
        choices=[(value, value) for value in MODIFICATIONS],
        initial="none",
        widget=forms.RadioSelect,
    )

    def setup(self) -> None:
        sheet, skill = self.sheet, self.target.obj
        self.fields["ability"].choices = [
            (a.value, f"{a.label} ({sheet.ability_value(a.value)})") for a in ColdStarsAbility
        ]
        self.fields["ability"].initial = skill.ability
        self.fields["ability"].help_text = f"Suggested: {skill.get_ability_display()}."
        if skill.needs_domain:
            domains = [d.name for d in skill.domains.all()]
            self.fields["domain"].choices = [(name, f"In domain: {name}") for name in domains] + [
                (OUTSIDE_DOMAINS, "Outside every domain")
            ]
            self.fields["domain"].initial = domains[0] if domains else OUTSIDE_DOMAINS
            self.fields["domain"].required = True
        else:
            del self.fields["domain"]

    def _built(self) -> cold_stars.Pool:
        d, skill = self.cleaned_data, self.target.obj
        in_domain = d.get("domain", "") != OUTSIDE_DOMAINS
        return cold_stars.build_pool(
            ability=self.sheet.ability_value(d["ability"]),
            skill=skill.rating,
            risk=d["risk"],
            trained=skill.trained,
            domain_skill=skill.is_domain,
            in_domain=in_domain,
        )

    def _choices(self, built: cold_stars.Pool) -> list[Choice]:
        sheet, result = self.sheet, []
        for value in MODIFICATIONS:
            kwargs = cold_stars_modification(value)
            if kwargs.get("willpower", 0) > built.ability:
                continue  # more upgrades than Ability dice: not offered at all
            change = cold_stars.modification_cost(**kwargs)
            try:
                pool = cold_stars.modify(built, **kwargs)
            except ValueError as exc:
                result.append(
                    Choice(value, _modification_label(value), _cost_words(change), "", [], str(exc))
                )
                continue
            problem = ""
            if sheet.momentum < -change.momentum:
                problem = f"{_modification_label(value)} needs {-change.momentum} Momentum; you have {sheet.momentum}."
            elif sheet.willpower < -change.willpower:
                problem = f"This needs {-change.willpower} Willpower; you have {sheet.willpower}."
            cost = _cost_words(change)
            if change.momentum > 0 and sheet.momentum >= sheet.momentum_max:
                cost += f" (Momentum is at its maximum, {sheet.momentum_max})"
            result.append(
                Choice(
                    value,
                    _modification_label(value),
                    cost,
                    pool.describe(),
                    bands(cold_stars.odds(pool)),
                    problem,
                )
            )
        return result

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors or "modification" not in data:
            return data
        try:
            built = self._built()
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None
        self.choices = self._choices(built)
        chosen = next((c for c in self.choices if c.value == data["modification"]), None)
        if chosen is None:
            self.add_error("modification", "This pool has fewer Ability dice to upgrade.")
        elif chosen.problem:
            self.add_error("modification", chosen.problem)
        return data

    def make_plan(self) -> Plan:
        d, skill = self.cleaned_data, self.target.obj
        built = self._built()
        kwargs = cold_stars_modification(d["modification"])
        pool = cold_stars.modify(built, **kwargs)
        ability_label = ColdStarsAbility(d["ability"]).label
        training = (
            f"trained {skill.rating}"
            if skill.trained
            else f"untrained (+{cold_stars.UNTRAINED_RISK} Risk)"
        )
        breakdown = (
            f"{self.sheet.ability_value(d['ability'])} {ability_label} + {skill.name} {training}"
        )
        if d.get("domain") == OUTSIDE_DOMAINS:
            breakdown += (
                f", outside every domain (counts as at most {cold_stars.OUTSIDE_DOMAIN_SKILL_CAP})"
            )
        elif d.get("domain"):
            breakdown += f", in domain {d['domain']}"
        breakdown += f", Risk {d['risk']} = {built.describe()}"
        if kwargs:
            breakdown += f"; {_modification_label(d['modification'])}: {pool.describe()}"
        actions = [Action("roll", f"Roll {pool.describe()}")]
        notes = []
        try:
            skipped = self._skip(built)
        except ValueError as exc:
            notes.append(str(exc))
        else:
            actions.append(Action("skip", f"Skip the roll: {OUTCOME_LABELS[skipped]}", False))
        options = self._base_options() | {
            "ability": d["ability"],
            "ability_rating": self.sheet.ability_value(d["ability"]),
            "skill_rating": skill.rating,
            "trained": skill.trained,
            "domain_skill": skill.is_domain,
            "domain": d.get("domain", ""),
            "risk": d["risk"],
            "modification": d["modification"],
        }
        pool_json = {"ability": pool.ability, "skill": pool.skill, "risk": pool.risk}
        pool_json["built"] = {"ability": built.ability, "skill": built.skill, "risk": built.risk}
        return Plan(
            options,
            pool_json,
            breakdown,
            bands(cold_stars.odds(pool)),
            actions,
            notes,
            self.choices,
        )

    def _skip(self, built: cold_stars.Pool) -> str:
        """The engine's skip on the pool as built (step 3), in or out of a contest and with or
        without a step-4 choice; ``ValueError`` says why not."""
        return cold_stars.skip(
            built,
            contested=self.in_contest,
            modified=self.cleaned_data["modification"] != "none",
        )

    def roll(self, action: str, sheet: Any, rng: Any) -> Outcome:
        plan = self.plan
        assert plan is not None
        pool = cold_stars.Pool(plan.pool["ability"], plan.pool["skill"], plan.pool["risk"])
        if action == "skip":
            # Checked before anything is spent: a refused skip leaves the sheet as it was.
            built = cold_stars.Pool(**plan.pool["built"])
            try:
                outcome = self._skip(built)
            except ValueError as exc:
                raise Refused(str(exc)) from None
            return Outcome(
                Kind.SKIP,
                plan.options,
                plan.pool,
                plan.breakdown,
                [],
                outcome,
                f"Skipped with {_plural(pool.risk, 'Risk die')} left.",
                {},
                CERTAIN,
                {},
            )
        kwargs = cold_stars_modification(plan.options["modification"])
        changes = apply_cold_stars_change(sheet, cold_stars.modification_cost(**kwargs))
        faces = cold_stars.roll(pool, rng)
        outcome = cold_stars.resolve(faces)
        odds = cold_stars.odds(pool)
        return Outcome(
            Kind.ROLL,
            plan.options,
            plan.pool,
            plan.breakdown,
            cold_stars_faces(faces),
            outcome,
            cold_stars_detail(faces, outcome),
            {},
            odds[outcome],
            changes,
            odds,
        )


def apply_cold_stars_change(sheet: Any, change: cold_stars.ResourceChange) -> dict[str, int]:
    """Spend or gain Momentum and Willpower on the locked sheet; refuse what isn't there.
    A gain stops at the GM's maximum (the sheet never holds more)."""
    if sheet.momentum < -change.momentum:
        raise Refused(f"That needs {-change.momentum} Momentum; you have {sheet.momentum}.")
    if sheet.willpower < -change.willpower:
        raise Refused(f"That needs {-change.willpower} Willpower; you have {sheet.willpower}.")
    momentum = min(sheet.momentum_max, sheet.momentum + change.momentum)
    willpower = sheet.willpower + change.willpower
    changes = {"momentum": momentum - sheet.momentum, "willpower": willpower - sheet.willpower}
    if any(changes.values()):
        sheet.momentum, sheet.willpower = momentum, willpower
        sheet.save(update_fields=["momentum", "willpower"])
    return changes


def cold_stars_faces(faces: cold_stars.Faces) -> list[dict[str, Any]]:
    symbols = faces.symbols()
    return [
        {"kind": kind, "face": face, "reading": symbol}
        for kind in ("ability", "skill", "risk")
        for face, symbol in zip(getattr(faces, kind), symbols[kind], strict=True)
    ]


def cold_stars_detail(faces: cold_stars.Faces, outcome: str) -> str:
    symbols = faces.symbols()
    shown = symbols["ability"] + symbols["skill"] + symbols["risk"]
    counts = [
        _plural(shown.count(s), name)
        for s, name in (
            ("critical_success", "critical success"),
            ("success", "success"),
            ("failure", "failure"),
            ("critical_failure", "critical failure"),
            ("blank", "blank"),
        )
        if shown.count(s)
    ]
    words = ", ".join(counts).replace("successs", "successes")
    if outcome == "choice":
        words += ": choose a Costly Success or a Failure"
    return words


FORMS: dict[str, type[RollForm]] = {
    System.COGENT: CogentRollForm,
    System.DAD6: Dad6RollForm,
    System.COLD_STARS: ColdStarsRollForm,
}


def default_bands(kind: str, obj: Any) -> list[Band]:
    """Odds beside a sheet row's Roll button, at the panel's default options."""
    if kind.startswith("cogent"):
        return bands(cogent.odds(obj.pool))
    if kind == "dad6-skill":
        # The rolled-forward boons count, as they will in the panel.
        forward = obj.sheet.forward_boons
        return bands(dad6.odds(obj.pool, competence=obj.effective_competence, bonus_boons=forward))
    return bands(cold_stars.odds(obj.pool))
