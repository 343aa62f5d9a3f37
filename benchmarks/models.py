from django.db import models


class BareHit(models.Model):
    """The bare baseline view's table: one INSERT per request, nothing else."""

    note = models.CharField(max_length=100)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.note} #{self.pk}"
