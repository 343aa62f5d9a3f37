"""The campaign's rule system for templates (its template folder, its skills page)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django import template

from sheets.systems import rule_system_of

if TYPE_CHECKING:
    from sheets.models import Campaign
    from sheets.systems import RuleSystem

register = template.Library()


@register.filter
def rule_system(campaign: Campaign) -> RuleSystem[Any]:
    """``{% with system=campaign|rule_system %}``: the seam, asked above the models."""
    return rule_system_of(campaign)
