"""Campaigns, their members and invites, and the GM's own skills."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import live
from sheets.access import (
    campaign_for_gm,
    campaign_for_member,
)
from sheets.forms import (
    CampaignForm,
    InviteForm,
)
from sheets.invites import PENDING_INVITE, forget_pending_invite
from sheets.models import (
    Campaign,
    Character,
    Invite,
    InviteError,
    Membership,
)
from sheets.systems import rule_system_of
from web.http import AuthenticatedHttpRequest, HtmxHttpRequest, form_data

# The session key of the invite a visitor opened before logging in or signing up.

# ---------------------------------------------------------------------------------------------
# Campaigns
# ---------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = CampaignForm(form_data(request))
    if request.method == "POST" and form.is_valid():
        campaign = form.save(commit=False)
        campaign.start(gm=request.user)
        messages.success(request, f"Campaign “{campaign.name}” created. You are its GM.")
        return redirect(campaign)
    return render(
        request,
        "sheets/campaign_form.html",
        {"form": form, "campaign": None},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_GET
def campaign_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_member(request, pk)
    return render(request, "sheets/campaign_detail.html", _campaign_context(campaign, membership))


def _campaign_context(
    campaign: Campaign, membership: Membership, invite_form: InviteForm | None = None
) -> dict[str, object]:
    characters = list(
        Character.objects.visible_to(membership).select_related("owner").order_by("is_npc", "name")
    )
    mine = [c for c in characters if c.owner_id == membership.user_id and not c.is_npc]
    context: dict[str, object] = {
        "campaign": campaign,
        "membership": membership,
        "members": campaign.memberships.select_related("user").order_by("role", "user__username"),
        "characters": characters,
        # A player who joined but has no character yet is led to make one.
        "needs_character": membership.is_player and not mine,
    }
    if membership.is_gm:
        context["invites"] = campaign.invites.all()
        context["invite_form"] = invite_form or InviteForm()
    return context


@login_required
@require_http_methods(["GET", "POST"])
def campaign_edit(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for_gm(request, pk)
    form = CampaignForm(form_data(request), instance=campaign)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Campaign saved.")
        return redirect(campaign)
    return render(
        request,
        "sheets/campaign_form.html",
        {"form": form, "campaign": campaign},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def member_remove(request: AuthenticatedHttpRequest, pk: int, member_pk: int) -> HttpResponse:
    campaign, gm = campaign_for_gm(request, pk)
    member = get_object_or_404(campaign.memberships.select_related("user"), pk=member_pk)
    if member.pk == gm.pk:
        raise PermissionDenied("Hand the GM role to someone else before leaving.")
    if request.method == "POST":
        member.delete()
        # Their open live streams end (rolls/live/stream.py re-reads the membership).
        live.publish(campaign.pk, "member", member.user_id)
        messages.success(request, f"{member.user.username} was removed from the campaign.")
        return redirect(campaign)
    return render(
        request,
        "sheets/confirm.html",
        {
            "campaign": campaign,
            "title": f"Remove {member.user.username}?",
            "body": (
                f"{member.user.username} will lose access to “{campaign.name}”. Their characters "
                "stay in the campaign, editable by you."
            ),
            "action": reverse("member_remove", args=[campaign.pk, member.pk]),
            "button": "Remove member",
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def member_make_gm(request: AuthenticatedHttpRequest, pk: int, member_pk: int) -> HttpResponse:
    campaign, gm = campaign_for_gm(request, pk)
    member = get_object_or_404(campaign.memberships.select_related("user"), pk=member_pk)
    if member.pk == gm.pk:
        return redirect(campaign)
    if request.method == "POST":
        campaign.hand_gm_to(member)
        # Both roles changed: their open streams re-read what each may now see.
        live.publish(campaign.pk, "member", member.user_id)
        live.publish(campaign.pk, "member", gm.user_id)
        messages.success(request, f"{member.user.username} is now the GM. You stay on as a player.")
        return redirect(campaign)
    return render(
        request,
        "sheets/confirm.html",
        {
            "campaign": campaign,
            "title": f"Make {member.user.username} the GM?",
            "body": (
                f"{member.user.username} becomes the GM of “{campaign.name}” and takes over the "
                "NPCs. You become a player and can no longer edit other players' characters."
            ),
            "action": reverse("member_make_gm", args=[campaign.pk, member.pk]),
            "button": "Hand over the GM role",
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_leave(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_member(request, pk)
    if membership.is_gm:
        raise PermissionDenied("The GM cannot leave; hand the GM role to another member first.")
    if request.method == "POST":
        membership.delete()
        live.publish(campaign.pk, "member", membership.user_id)
        messages.success(request, f"You left “{campaign.name}”.")
        return redirect("home")
    return render(
        request,
        "sheets/confirm.html",
        {
            "campaign": campaign,
            "title": f"Leave “{campaign.name}”?",
            "body": "You will need a new invite link to come back.",
            "action": reverse("campaign_leave", args=[campaign.pk]),
            "button": "Leave campaign",
        },
    )


# ---------------------------------------------------------------------------------------------
# Invites
# ---------------------------------------------------------------------------------------------


@login_required
@require_POST
def invite_create(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    form = InviteForm(request.POST)
    if form.is_valid():
        invite = form.save(commit=False)
        invite.campaign = campaign
        invite.created_by = request.user
        invite.save()
        if not request.htmx:
            messages.success(request, "Invite link created.")
            return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#invites")
    context = _campaign_context(
        campaign,
        membership,
        invite_form=None if form.is_valid() else form,  # saved: a fresh one
    )
    if request.htmx:
        return render(request, "sheets/campaign_detail.html#invites", context)
    return render(request, "sheets/campaign_detail.html", context, status=400)


@login_required
@require_POST
def invite_revoke(request: AuthenticatedHttpRequest, pk: int, invite_pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    invite = get_object_or_404(campaign.invites, pk=invite_pk)
    invite.revoke()
    if request.htmx:
        return render(
            request, "sheets/campaign_detail.html#invites", _campaign_context(campaign, membership)
        )
    messages.success(request, "Invite link revoked.")
    return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#invites")


@require_http_methods(["GET", "POST"])
def invite_accept(request: HtmxHttpRequest, token: str) -> HttpResponse:
    invite = get_object_or_404(Invite.objects.select_related("campaign"), token=token)
    campaign = invite.campaign
    member = campaign.membership_for(request.user)
    if member is not None:
        forget_pending_invite(request, invite)
        messages.info(request, "You are already a member of this campaign.")
        return redirect(campaign)
    problem = invite.problem()
    if problem:
        # 410 Gone: the link existed but can no longer be used.
        forget_pending_invite(request, invite)
        return render(
            request, "sheets/invite.html", {"invite": invite, "problem": problem}, status=410
        )
    context = {"invite": invite, "problem": None, "auth_next": invite.get_absolute_url()}
    if not request.user.is_authenticated:
        # Every way to an account leads back here: the links carry ?next=, and the session keeps
        # the invite for the ways that lose it (a password reset, a typed address); the home page
        # then offers to finish joining (sheets/views/accounts.py).
        request.session[PENDING_INVITE] = invite.token
        if request.method == "POST":
            return redirect(f"{reverse('login')}?next={invite.get_absolute_url()}")
        return render(request, "sheets/invite.html", context)
    if request.method == "POST":
        try:
            membership = invite.redeem(request.user)
        except InviteError as exc:
            return render(
                request, "sheets/invite.html", {"invite": invite, "problem": str(exc)}, status=410
            )
        forget_pending_invite(request, invite)
        joined = f"You joined “{campaign.name}” as {invite.get_role_display().lower()}."
        if membership.is_player:
            joined += " Next, create your character."
        messages.success(request, joined)
        return redirect(campaign)
    return render(request, "sheets/invite.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def campaign_skills(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The GM's skills beside the rules' own: Cold Stars custom skills beside the default catalog,
    Cogent combat skills (magic, powers) beside the Book's fixed list."""
    campaign, membership = campaign_for_member(request, pk)
    system = rule_system_of(campaign)
    skills = system.campaign_skills
    if skills is None:
        raise Http404(
            f"{system.label} skills are written on each sheet; there is no campaign list."
        )
    form = None
    if membership.is_gm:
        form = skills.form(campaign, form_data(request))
    elif request.method == "POST":
        raise PermissionDenied("Only the GM adds skills.")
    if request.method == "POST" and form is not None and form.is_valid():
        with transaction.atomic():
            message = skills.add(form)
        messages.success(request, message)
        return redirect("campaign_skills", pk=campaign.pk)
    context: dict[str, object] = {"campaign": campaign, "membership": membership, "form": form}
    context |= skills.context(campaign)
    return render(
        request,
        "sheets/campaign_skills.html",
        context,
        status=400 if form is not None and form.is_bound else 200,
    )
