"""A member's own details: email, phone, name at the table and who may see the email and
phone (the login's member in the request's club: a login in two clubs has details in
each); and the club's contact list, showing each member's details only to whom that
member allows (`Member.contact_shown_to`)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from club.forms import MyDetailsForm
from club.models import Member
from club.roles import is_coordinator


@login_required
def my_details(request):
    # The login's own member, never one named in the request: a member changes only theirs.
    member = Member.objects.for_login(request.user)
    if member is None:
        return render(request, "club/my_details.html", {"member": None})
    form = MyDetailsForm(request.POST or None, instance=member)
    if request.method == "POST" and form.is_valid():
        if form.save():
            messages.success(request, "Your details are saved.")
        else:
            messages.info(request, "Your details were already saved as they are.")
        return redirect("my_details")
    return render(request, "club/my_details.html", {"member": member, "form": form})


@login_required
@require_safe
def contacts(request):
    members = Member.objects.filter(is_active=True, is_guest=False).exclude(email="", phone="")
    if not is_coordinator(request.user, request.club):
        # Only those who may show up at all; the rule itself is asked of each below.
        members = members.filter(contact_sharing=Member.Sharing.MEMBERS) | members.filter(
            user=request.user
        )
    shown = [m for m in members.order_by("table_name") if m.contact_shown_to(request.user)]
    return render(request, "club/contacts.html", {"members": shown})
