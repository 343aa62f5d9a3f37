from django.apps import AppConfig


class NoteConfig(AppConfig):
    """Only for its template: the kind itself is registered through settings.LOG_KINDS."""

    name = "tests.note"
    label = "table_note_kind"
    verbose_name = "Table notes (a test-only kind of log entry)"
