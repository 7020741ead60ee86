"""Members' data: the club's privacy notice (public) and a coordinator erasing a leaver's
personal details (club/privacy/)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_safe

from club.models import Club, Member
from club.privacy import erasure
from club.privacy.forms import MembersDataSettingsForm
from club.privacy.models import Erasure
from club.privacy.notice import notice_text
from club.refusals import Refused, show_refusal
from club.roles import coordinator_required


@require_safe
def privacy_notice(request):
    return render(request, "club/privacy/notice.html", {"notice": notice_text(request.club)})


@coordinator_required
@require_http_methods(["GET", "HEAD", "POST"])
def member_erase(request, pk):
    """Asks first (what goes, what stays); the post erases, once."""
    member = get_object_or_404(Member, pk=pk, club=request.club)
    done = Erasure.objects.filter(member=member).select_related("erased_by").first()
    if request.method == "POST":
        if done is not None:
            messages.info(request, f"{member.table_name}'s personal details were erased already.")
            return redirect("club:member_detail", pk=member.pk)
        try:
            made = erasure.erase(member, by=request.user)
        except Refused as error:
            return show_refusal(request, error, "club:member_detail", pk=member.pk)
        if made is None:
            messages.info(request, "Those personal details were erased already.")
        else:
            messages.success(
                request,
                f"The personal details are erased: the member is now “{made.member.table_name}”. "
                "Their results stay as they were.",
            )
        return redirect("club:member_detail", pk=member.pk)
    new_name = erasure.former_name(member) if done is None and not member.is_active else ""
    context = {"member": member, "done": done, "new_name": new_name}
    return render(request, "club/privacy/erase.html", context)


@coordinator_required
@require_http_methods(["GET", "HEAD", "POST"])
def members_data_settings(request):
    """How long leavers' details are kept (and who is due now), what an erased member is
    called, and the privacy notice's text."""
    club = request.club
    form = MembersDataSettingsForm(request.POST or None, instance=club)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "The members' data settings are saved.")
        return redirect("members_data_settings")
    context = {"form": form, "due": list(erasure.due_for_erasure(Club.objects.get(pk=club.pk)))}
    return render(request, "club/privacy/settings.html", context)
