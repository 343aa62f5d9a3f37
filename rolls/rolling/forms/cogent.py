"""The Cogent roll panel: pool from the sheet, CL, destiny, circumstances, equipment, assists."""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from django import forms
from django.db.models import Expression, QuerySet
from django.http import QueryDict

from log.models import Kind, Visibility
from rolls.models import Assist
from rolls.models.assists import group_dice_text
from rolls.rolling.display import CERTAIN, bands
from rolls.rolling.forms.base import RollForm
from rolls.rolling.forms.cogent_notes import AUTO_PASS_WORDS, FLAG_WORDS, flag_notes
from rolls.rolling.forms.cogent_pools import (
    cogent_pool,
    default_weapon,
    dual_wield_dice,
    spend_destiny_before,
)
from rolls.rolling.outcomes import (
    Action,
    Outcome,
    Plan,
    assist_detail,
    cogent_detail,
    cogent_faces,
    cogent_result,
    pool_terms,
)
from rules import RandomSource, cogent
from sheets import ranges
from sheets.models import CUSTOM_WEAPON, Character, CogentSheet, Refused
from sheets.models.base import StateRead

# ---------------------------------------------------------------------------------------------
# Cogent Roleplay
# ---------------------------------------------------------------------------------------------

WEAPON_BONUS_MIN, WEAPON_BONUS_MAX = ranges.COGENT_WEAPON_BONUS_MIN, ranges.COGENT_WEAPON_BONUS_MAX


VOCATION_KIND = "cogent-vocation"  # a vocation row: it assists, it is never rolled on its own


class CogentRollForm(RollForm[CogentSheet]):
    folded = (
        "visibility",
        "extra_penalty",
        "equipment",
        "duress",
        "contested",
        "reflexive",
        "assist_for",
        "further_helpers",
    )
    fold_hint = "penalty dice, equipment, duress, contested, reflexive, assists, who sees it"

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
        error_messages={
            "invalid_choice": "%(value)s is not a combat circumstance (to dual wield, choose "
            "the secondary weapon instead)."
        },
    )
    secondary_weapon = forms.ChoiceField(
        label="Dual wielding: secondary weapon",
        choices=[("", "None")]
        + [(name, f"{name} (+{dice})") for name, dice in cogent.DUAL_WIELD_DICE.items()],
        required=False,
        help_text="Needs a point in both weapons' combat skills; the roll uses the primary "
        "weapon's skill and bonus.",
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
    # Book: these three only cancel skill speciality (the automatic pass); they never change the
    # odds of the dice, and the help says so rather than let a player expect it. The odds area
    # says what a ticked one does to this roll (make_plan's notes).
    duress = forms.BooleanField(
        label="Under duress",
        required=False,
        help_text=f"Rushed or threatened. No automatic pass ({AUTO_PASS_WORDS}); "
        "the odds of the dice stay the same.",
    )
    contested = forms.BooleanField(
        label="Contested",
        required=False,
        help_text=f"Someone works against it. No automatic pass ({AUTO_PASS_WORDS}) and no "
        "assist; the odds of the dice stay the same.",
    )
    reflexive = forms.BooleanField(
        label="Reflexive (a failure injures)",
        required=False,
        help_text="A saving throw: a failure injures you, level CL − wins (at most 5). "
        "No automatic pass; the odds of the dice stay the same.",
    )
    use_assist = forms.BooleanField(label="Take the waiting assist", required=False, initial=True)
    assist_for = forms.TypedChoiceField(
        label="Roll as an assist for",
        coerce=int,
        empty_value=None,
        required=False,
        help_text=f"Against CL {cogent.ASSIST_MIN_CL} or more: wins above the CL add to that "
        "character's next action, a shortfall subtracts.",
    )
    further_helpers = forms.IntegerField(
        label="Further helpers",
        min_value=0,
        max_value=cogent.GROUP_HELPERS_MAX,
        initial=0,
        required=False,  # left out means none
        help_text="A group assist: each other helper adds +1 die to this assist roll; the "
        "assisted roll takes its ± wins.",
    )

    @classmethod
    def roll_state(cls, sheet_pk: Expression) -> dict[str, StateRead]:
        # The penalty dice and whether an assist waits: three queries a roll would make.
        waiting = Assist.objects.waiting().filter(assisted_id=sheet_pk).values("pk")[:1]
        return CogentSheet.penalty_reads(sheet_pk) | {"waiting_assist_pk": waiting}

    def _loaded_with_target(self) -> bool:
        """Is the sheet the one loaded with the target, with the target's roll state?"""
        return self.sheet is self.target.sheet and hasattr(self.target.obj, "waiting_assist_pk")

    def setup(self) -> None:
        if self._loaded_with_target():
            self.sheet.take_penalties(self.target.obj)
        self._setup_assists()
        if self.target.is_combat:
            # The weapon stored with the combat skill, so the panel's default pool is the sheet's.
            row = self.target.obj
            self.fields["weapon"].required = True
            for name, value in default_weapon(row).items():
                self.fields[name].initial = value
        else:
            # Rules at the table: the combat circumstances apply to combat rolls only.
            for name in ("weapon", "weapon_bonus", "circumstances", "secondary_weapon"):
                del self.fields[name]
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
        super().clean()
        data = self.cleaned_data
        if data.get("weapon") == CUSTOM_WEAPON and data.get("weapon_bonus") is None:
            self.add_error("weapon_bonus", "Enter the weapon's bonus dice.")
        try:
            cogent.circumstance_dice(data.get("circumstances") or [])
        except ValueError as exc:
            self.add_error("circumstances", str(exc))
        if data.get("secondary_weapon"):
            try:
                dual_wield_dice(self.sheet, self.target.obj, data["secondary_weapon"])
            except ValueError as exc:
                self.add_error("secondary_weapon", str(exc))
        if data.get("destiny_before") and self.sheet.destiny_points < cogent.DESTINY_COST:
            self.add_error(
                "destiny_before", "You have no destiny points left to spend before the roll."
            )
        self._clean_assists(data)
        return data

    def _setup_assists(self) -> None:
        """Assists (Book, assists.tex): this row may assist another character of the campaign,
        and an assist rolled for this character waits for its next action."""
        character, gm = self.target.character, self.gm

        @cache
        def others() -> QuerySet[Character]:
            # Built when first read (the panel is drawn, an assist asked for), not on every
            # roll; then one queryset, so its rows are read once however often they're shown.
            # (It reads no attribute of the form: held by a field of the form, it would make a
            # reference cycle of them, left for the garbage collector.)
            found = Character.objects.filter(campaign_id=character.campaign_id).exclude(
                pk=character.pk
            )
            if not gm:
                found = found.filter(hidden_from_players=False)
            return found.order_by("name", "pk")

        # Book: an assist may help the assister's own next roll ("whether their own or another
        # player's" — the Martial Artist example) as well as someone else's.
        own = [(character.pk, f"{character.name} (this character's own next action)")]
        # A callable: read only when the panel is drawn or an assist is asked for, not on every roll.
        # Rules at the table: a vocation only assists (Book, vocations.tex), so its panel has no
        # "roll of its own".
        alone = [] if self.assist_only else [("", "Nobody: this is a roll of its own")]
        cast(forms.ChoiceField, self.fields["assist_for"]).choices = lambda: (
            alone + own + [(other.pk, other.name) for other in others()]
        )
        if self.assist_only:
            first = others().first()
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
        self.assist_target = None
        self.waiting_assist: Assist | None = None
        if not self.in_contest or cogent.ASSISTS_IN_CONFLICTS:
            none_waits = self._loaded_with_target() and self.target.obj.waiting_assist_pk is None
            if not none_waits:
                self.waiting_assist = Assist.objects.waiting_for(character).first()
        if self.waiting_assist is None:
            del self.fields["use_assist"]
        else:
            waiting = self.waiting_assist
            self.fields[
                "use_assist"
            ].label = f"Take {waiting.by_name}'s assist ({waiting.effect_text})"
            self.fields[
                "use_assist"
            ].help_text = "It waits for this character's next action; untick to keep it for later."

    @property
    def assist_only(self) -> bool:
        return self.target.kind == VOCATION_KIND

    def _clean_assists(self, data: dict[str, Any]) -> None:
        for_pk = data.get("assist_for")
        if data.get("further_helpers") and for_pk is None:
            self.add_error(
                "further_helpers",
                "Further helpers join an assist: choose whom this roll assists, or set 0.",
            )
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

    def next_roll_data(self, data: QueryDict, sheet: CogentSheet) -> QueryDict:
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
        cl = d["challenge_level"]
        weapon, bonus = self._weapon()
        assist = self.assist_taken()
        # Book (Group Assists): the further helpers' dice go on the assist roll, never on the
        # roll that takes the assist (RULES.md §8).
        helpers = (d.get("further_helpers") or 0) if self.assist_target is not None else 0
        pool, terms = cogent_pool(
            sheet,
            row,
            combat=self.target.is_combat,
            weapon=(weapon, bonus),
            circumstances=list(d.get("circumstances") or []),
            equipment=d.get("equipment") or 0,
            extra=d["extra_penalty"],
            helpers=helpers,
            secondary=d.get("secondary_weapon") or "",
        )
        wins = assist.wins if assist is not None else 0
        odds = cogent.odds(
            pool, challenge_level=cl, destiny_before=d["destiny_before"], assist=wins
        )
        auto = cogent.auto_success(
            cogent.speciality_pool(pool, equipment=d.get("equipment") or 0),
            challenge_level=cl,
            duress=d["duress"],
            contested=d["contested"],
            reflexive=d["reflexive"],
            combat=self.target.is_combat,
        )
        actions, notes = self._actions_and_notes(pool, auto, assist)
        return Plan(
            self._plan_options(weapon, bonus, assist),
            {"dice": pool},
            self._breakdown(pool, terms, assist),
            bands(odds),
            actions,
            notes,
        )

    def _breakdown(self, pool: int, terms: list[tuple[int, str]], assist: Assist | None) -> str:
        d = self.cleaned_data
        cl = d["challenge_level"]
        breakdown = f"{pool_terms(terms)} = {pool}d6"
        if sum(value for value, _ in terms) < pool:
            breakdown += " (a pool is never below 0)"
        breakdown += f" vs CL {cl} ({cogent.CHALLENGE_LEVELS[cl]})"
        flags = [words for name, words in FLAG_WORDS.items() if d[name]]
        if d["destiny_before"]:
            breakdown += f", destiny spent first ({cogent.DESTINY_WIN_FACE}–6 win)"
        if flags:
            breakdown += ", " + ", ".join(flags)
        if assist is not None:
            breakdown += f", {assist.wins_text} from {assist.by_name}'s assist"
        return breakdown

    def _actions_and_notes(
        self, pool: int, auto: bool, assist: Assist | None
    ) -> tuple[list[Action], list[str]]:
        d = self.cleaned_data
        cl = d["challenge_level"]
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
            if d.get("further_helpers"):
                notes.append(
                    f"Group assist: {group_dice_text(d['further_helpers'])} on this assist "
                    "roll (counted in the pool above)."
                )
        elif assist is not None:
            notes.append(
                f"{assist.by_name}'s assist: {assist.effect_text} on this roll (odds included)."
            )
        if auto:
            notes.append(
                f"Skill speciality: {pool} dice against CL {cl} pass without rolling "
                "(unless you choose to roll)."
            )
        notes += flag_notes(
            d, pool=pool, cl=cl, assist=self.assist_target is not None, combat=self.target.is_combat
        )
        return actions, notes

    def _plan_options(self, weapon: str, bonus: int, assist: Assist | None) -> dict[str, Any]:
        """What the entry records of the roll's options (docs/roll-log.md)."""
        d, sheet, row = self.cleaned_data, self.sheet, self.target.obj
        attribute = None if self.target.is_combat else row.attribute
        circumstances = list(d.get("circumstances") or [])
        equipment = d.get("equipment") or 0
        options = self._base_options() | {
            "challenge_level": d["challenge_level"],
            "injury_dice": sheet.injury_dice_on(attribute),
            "disability_dice": sheet.disability_dice_on(attribute),
            "penalty_dice": sheet.penalty_dice,
            "extra_penalty": d["extra_penalty"],
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
            if d.get("secondary_weapon"):
                options["secondary_weapon"] = d["secondary_weapon"]
        else:
            options["attribute"] = row.attribute
        if self.assist_target is not None:
            options["assist_for"] = self.assist_target.name
            if d.get("further_helpers"):
                options["further_helpers"] = d["further_helpers"]
        elif assist is not None:
            # Linked by the assist entry's hash, as exports link entries: never a raw pk.
            options["assist"] = {
                "by": assist.by_name,
                "wins": assist.wins,
                "entry_hash": assist.entry.hash,
            }
        return options

    def spends(self, action: str) -> bool:
        assert self.plan is not None
        return action != "auto_pass" and bool(self.plan.options["destiny_before"])

    def roll(self, action: str, sheet: CogentSheet, rng: RandomSource) -> Outcome:
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

    def assist_taken(self) -> Assist | None:
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
        detail = assist_detail(
            cl,
            options["assist_for"],
            helpers=options.get("further_helpers", 0),
            rolled_wins=result.rolled_wins,
            value=value,
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
