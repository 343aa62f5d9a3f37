"""manage.py rotate_key NEW_KEY_FILE [--create]: the server's current key signs that the key in
NEW_KEY_FILE follows it, so that players' browsers and saved keys files accept it
(docs/verifiable-dice.md, "Rotating")."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from log.models.keys import server_key, sign_rotation
from proofs.keys import KeyFileError, ServerKey, write_new_key_file


class Command(BaseCommand):
    help = (
        "Before a key rotation: sign, with the key the server uses now (SIGNING_KEY_FILE), the "
        "statement that the key in NEW_KEY_FILE follows it. The statement is published with the "
        "new key once the server uses it; a player's browser that pinned the old key accepts the "
        "new one only with it. Then point SIGNING_KEY_FILE at NEW_KEY_FILE and restart."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("new_key_file", help="The new key's file (64 hex characters).")
        parser.add_argument(
            "--create",
            action="store_true",
            help="Make NEW_KEY_FILE with a fresh key first (refused if it exists).",
        )

    def handle(self, *args: object, new_key_file: str, create: bool, **options: object) -> None:
        try:
            new = write_new_key_file(new_key_file) if create else ServerKey.from_file(new_key_file)
            rotation = sign_rotation(server_key(), new)
        except (KeyFileError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(
            f"Key {rotation.previous} signed the rotation to {rotation.key}. Now set "
            f"SIGNING_KEY_FILE={new_key_file}, restart and migrate; keep the old key's file safe "
            "or destroy it."
        )
