"""The message composer and the correction form (validation only; rolls/messages/actions.py
writes). Both the log's form and the API validate through these."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypedDict

from django import forms
from django.db.models import Q, Value

from rolls.messages.text import MAX_LENGTH, MAX_LINES
from sheets.models import Campaign, Character, Membership, Role

OUT_OF_CHARACTER = "ooc"
NARRATION = "narration"

EVERYONE, GM_ONLY, WHISPER = "everyone", "gm", "whisper"


def speaker_rows(membership: Membership) -> Any:
    """Whom the member may speak as, as rows of ("speaker", name, pk): the characters they play
    (the GM: their own and the NPCs the players can see; a hidden NPC would give itself away by
    speaking). Observers speak only as themselves."""
    characters = Character.objects.filter(
        campaign_id=membership.campaign_id, hidden_from_players=False
    ).order_by()
    if membership.is_gm:
        characters = characters.filter(Q(is_npc=True) | Q(owner_id=membership.user_id))
    elif membership.is_player:
        characters = characters.filter(owner_id=membership.user_id)
    else:
        characters = characters.none()
    return characters.annotate(kind=Value("speaker")).values_list("kind", "name", "pk")


def recipient_rows(membership: Membership) -> Any:
    """Whom a whisper may be to, as rows of ("recipient", username, user id): every other member
    but the GM, who reads every whisper anyway."""
    members = (
        Membership.objects.filter(campaign_id=membership.campaign_id)
        .exclude(user_id=membership.user_id)
        .exclude(role=Role.GM)
        .order_by()
    )
    return members.annotate(kind=Value("recipient")).values_list(
        "kind", "user__username", "user_id"
    )


def choice_rows(membership: Membership) -> Any:
    """Both, in one query (the log page reads them in its filters' UNION instead)."""
    # order_by(): a union takes the first model's default ordering back, which names a column
    # these rows don't have (split_choices sorts them).
    return recipient_rows(membership).union(speaker_rows(membership), all=True).order_by()


def split_choices(
    rows: Iterable[tuple[str, str, int]],
) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """``choice_rows`` as (speakers, recipients): (pk, name) pairs each, sorted by name."""
    speakers: list[tuple[int, str]] = []
    recipients: list[tuple[int, str]] = []
    for kind, name, pk in rows:
        (speakers if kind == "speaker" else recipients).append((pk, name))
    return sorted(speakers, key=_by_name), sorted(recipients, key=_by_name)


def _by_name(pair: tuple[int, str]) -> tuple[str, int]:
    return (pair[1].casefold(), pair[0])


class PostedMessage(TypedDict):
    """A valid message form's say: ``actions.post_message``'s keyword arguments."""

    text: str
    character: Character | None
    narration: bool
    audience: str
    to: list[tuple[int, str]]


class TextField(forms.CharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            max_length=MAX_LENGTH,
            strip=True,
            widget=forms.Textarea(attrs={"rows": 2, "maxlength": MAX_LENGTH}),
            help_text="Markdown: *italic*, **bold**, ~~struck~~, `code`, [links](https://…).",
            **kwargs,
        )

    def clean(self, value: object) -> str:
        text = str(super().clean(value))
        if text.count("\n") >= MAX_LINES:
            raise forms.ValidationError(f"Keep a message to {MAX_LINES} lines or fewer.")
        return text


class MessageForm(forms.Form):
    text = TextField(label="Message")

    # One line to start with (the box grows by hand): the log's newest entries stay in view.
    text.widget.attrs |= {"rows": 1, "placeholder": "Say something to the table…"}
    speaker = forms.ChoiceField(label="Speak as")
    audience = forms.ChoiceField(label="Who reads it", initial=EVERYONE)
    to = forms.MultipleChoiceField(
        label="Whisper to",
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text="The GM reads every whisper.",
    )

    def __init__(
        self,
        *args: Any,
        membership: Membership,
        campaign: Campaign,
        choices: tuple[list[tuple[int, str]], list[tuple[int, str]]] | None = None,
        **kwargs: Any,
    ) -> None:
        """``choices``: (speakers, recipients) as ``split_choices`` gives them, when the caller
        read them already (the log page, in its filters' query); else one query here."""
        kwargs.setdefault("auto_id", "message_%s")
        super().__init__(*args, **kwargs)
        self.membership, self.campaign = membership, campaign
        speakers, recipients = choices or split_choices(choice_rows(membership))
        voices = [(OUT_OF_CHARACTER, "Out of character")]
        if membership.is_gm:
            voices.append((NARRATION, "Narration"))
        voices += [(str(pk), name) for pk, name in speakers]
        self.fields["speaker"].choices = voices  # type: ignore[attr-defined]
        audiences = [(EVERYONE, "Everyone")]
        if not membership.is_gm:  # the GM's "GM only" would be a note to nobody
            audiences.append((GM_ONLY, "GM only"))
        if recipients:
            audiences.append((WHISPER, "A whisper to…"))
        self.fields["audience"].choices = audiences  # type: ignore[attr-defined]
        self.members = {str(pk): name for pk, name in recipients}
        self.fields["to"].choices = list(self.members.items())  # type: ignore[attr-defined]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("audience") == WHISPER:
            if not data.get("to") and "to" not in self.errors:
                self.add_error("to", "Choose who the whisper is to.")
        else:
            data["to"] = []
        return data

    @property
    def character(self) -> Character | None:
        """The character spoken as (one the form offered), or None."""
        speaker = self.cleaned_data["speaker"]
        if speaker in (OUT_OF_CHARACTER, NARRATION):
            return None
        return Character.objects.select_related("campaign").get(
            pk=int(speaker), campaign_id=self.campaign.pk
        )

    @property
    def chosen(self) -> list[tuple[int, str]]:
        """A whisper's recipients as (user id, username)."""
        return [(int(pk), self.members[pk]) for pk in self.cleaned_data.get("to", [])]

    def message(self) -> PostedMessage:
        """What the valid form says to post: ``actions.post_message``'s keyword arguments (the
        log's composer and the API hand them on alike)."""
        data = self.cleaned_data
        return {
            "text": data["text"],
            "character": self.character,
            "narration": data["speaker"] == NARRATION,
            "audience": data["audience"],
            "to": self.chosen,
        }


class CorrectionForm(forms.Form):
    text = TextField(label="Corrected message")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "correction_%s")
        super().__init__(*args, **kwargs)
