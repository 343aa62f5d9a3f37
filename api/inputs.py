"""What every JSON body the API reads must be (docs/api.md, "Bad input"): a JSON object, whose
texts are whole Unicode text. One check (``whole_text``) serves every text field and every text
inside a body, declared or not (a roll's panel options), so no text the server can't encode —
a lone surrogate, JSON's ``"\\ud800"`` — reaches the log's hashing (it answered 500 there).

The patterns below say in the OpenAPI schema what the server refuses, so a client (or
schemathesis) knows it before sending: a blank message, a NUL character (Django's forms refuse
it), a nonce or a cursor that can't be one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Annotated

from pydantic import BaseModel, BeforeValidator, ConfigDict, model_validator
from pydantic_core import PydanticCustomError

from log.tokens import PATTERN as TOKEN_PATTERN

LONE_SURROGATE = (
    "This text holds a lone surrogate (such as \\ud800): half of a character, which no text "
    "can store. Send whole UTF-8 text."
)
# Pydantic formats the message with its context: braces are placeholders.
NOT_AN_OBJECT = "The body must be a JSON object, not {kind}."

# No NUL anywhere (the forms' ProhibitNullCharactersValidator): JSON Schema's and pydantic's
# patterns both search, so this one is anchored.
NO_NUL = r"^[^\x00]*$"
# And at least one character that isn't white space: a blank text is refused like an empty one.
NOT_BLANK = r"^[^\x00]*[^\s\x00][^\x00]*$"
# A roller's nonce (proofs.protocol.NONCE_RE), or "" for the server's own.
NONCE_PATTERN = r"^([A-Za-z0-9_-]{8,64})?$"
# A message's speaker: out of character, the GM's narration, or a character's id.
SPEAKER = r"^(ooc|narration|[1-9][0-9]{0,11})$"
# A log's cursor: an entry's id (log.tokens.PATTERN), or nothing.
CURSOR = f"^({TOKEN_PATTERN})?$"

# What a 422 says for a text that doesn't match its pattern (pydantic's own words quote the
# regular expression).
PATTERN_WORDS = {
    NO_NUL: "Remove the NUL character (\\u0000): no text may hold one.",
    NOT_BLANK: "Write something: this can't be blank (nor hold a NUL character).",
    NONCE_PATTERN: "The dice nonce must be 8 to 64 letters, digits, '-' or '_'.",
    SPEAKER: "“ooc”, “narration”, or a character's id.",
    CURSOR: "Not a cursor of this log.",
}


def pattern_words(error: Mapping[str, object]) -> str:
    """A readable message for pydantic's error, when it is a pattern of ours that failed."""
    if error.get("type") == "string_pattern_mismatch":
        context = error.get("ctx")
        pattern = context.get("pattern") if isinstance(context, dict) else None
        return PATTERN_WORDS.get(str(pattern), "")
    return ""


def whole_text(value: object) -> object:
    """The one check of every text the API reads: refuses a string holding a lone surrogate
    (422, the message beside its field)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise PydanticCustomError("lone_surrogate", LONE_SURROGATE) from None
    return value


def _texts(value: object) -> None:
    """``whole_text`` over every string in a JSON value, keys included."""
    if isinstance(value, dict):
        for key, item in value.items():
            whole_text(key)
            _texts(item)
    elif isinstance(value, list):
        for item in value:
            _texts(item)
    else:
        whole_text(value)


def json_object(data: object, declared: Iterable[str] = ()) -> dict[str, object]:
    """A body that is a JSON object (a JSON array or ``null`` used to be read as an empty
    object); every undeclared member's texts checked here, the declared ones by their field
    (``Text``), so the 422 names it."""
    if not isinstance(data, dict):
        kind = "an array" if isinstance(data, list) else "null" if data is None else "a scalar"
        raise PydanticCustomError("json_object", NOT_AN_OBJECT, {"kind": kind})
    _texts({key: value for key, value in data.items() if key not in declared})
    return data


# Every declared text field of a body.
Text = Annotated[str, BeforeValidator(whole_text)]


class BodyIn(BaseModel):
    """A JSON body (plain pydantic: ninja's Schema would read a list or null as an object with
    no members before any validator of ours saw it). Undeclared members are ignored, but their
    texts too must be whole; ``OptionsIn`` keeps them (a roll's panel options)."""

    @model_validator(mode="before")
    @classmethod
    def _an_object(cls, data: object) -> object:
        return json_object(data, cls.model_fields)


class OptionsIn(BodyIn):
    model_config = ConfigDict(extra="allow")
