"""The front of the house's pages: everyone's home page and the menu, a coordinator's Tonight
page, the club's settings (with the change of rule set) and its backup. Each draws on club,
games and scoring together, so it lives above all three."""

import io
import json
import tempfile

from axes.helpers import get_client_ip_address
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.db.models.functions import Lower
from django.http import FileResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_safe

from club.installation import waiting_for_setup
from club.lookups import my_member
from club.models import Club
from club.privacy.notice import notice_text
from club.roles import coordinator_required, is_coordinator
from club.week import replies
from club.week.forms import AwayForm
from club.week.models import AwayPeriod
from front import backup, evening, offline, signup_limit
from front import first_setup as first_setup_code
from front.clubs import ClubNotStarted, rule_set_options
from front.first_evening import first_evening
from front.forms import ClubSettingsForm, SetupForm, SignupForm
from front.rule_change import rule_set_change
from scoring.rules import short_name


@require_safe
def home(request):
    """Everyone's home page; on a session day a coordinator's home is the evening's steps.
    On an installation of many clubs the site's root (no club) lists them."""
    if request.club is None:
        if waiting_for_setup():  # an empty installation: its first club is made here
            return first_setup(request)
        return club_directory(request)
    context = {}
    if is_coordinator(request.user, request.club):
        # A new club's first steps, until it has members and a session.
        context["first_evening"] = first_evening(request.club)
        session = evening.today_session(request.club)
        if session is not None:
            context["evening"] = evening.evening(session)
            # Before play starts: who said they are coming (club/week/).
            if session.status == session.Status.PLANNED:
                context["picture"] = replies.picture(session)
            return render(request, "front/tonight.html", context)
    member = my_member(request)
    if member is not None:
        context["week"] = replies.member_week(member, timezone.localdate())
        context["away_form"] = AwayForm()
        context["away_periods"] = list(
            AwayPeriod.objects.filter(member=member).current(timezone.localdate())
        )
    return render(request, "front/home.html", context)


DIRECTORY_SIZE = 100  # a search narrows a long list


def club_directory(request):
    q = request.GET.get("q", "").strip()[:120]
    clubs = Club.objects.order_by(Lower("name"), "pk").only("name", "slug")
    if q:
        clubs = clubs.filter(name__icontains=q)
    listed = list(clubs[: DIRECTORY_SIZE + 1])
    return render(
        request,
        "site/clubs.html",
        {
            "clubs": listed[:DIRECTORY_SIZE],
            "more": len(listed) > DIRECTORY_SIZE,
            "q": q,
            "signup_open": settings.CLUB_SIGNUP,
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request):
    """A club starts itself (when the operators allow it: settings.CLUB_SIGNUP): the club,
    its address and rules, and its first coordinator's login, who is then logged in at the
    club's new address."""
    if not settings.CLUB_SIGNUP:
        return render(request, "site/not_found.html", status=404)
    form = SignupForm(request.POST if request.method == "POST" else None)
    refused = signup_limit.refusal(request) if form.is_bound else None
    if refused is None and form.is_bound and form.is_valid():
        try:
            club = form.start()
        except ClubNotStarted as refusal:  # taken between the check and the write
            form.add_refusal(refusal)
        else:
            signup_limit.club_started(request)
            user = get_user_model().objects.get(username=form.cleaned_data["username"])
            login(request, user, backend="club.login_names.CaseInsensitiveModelBackend")
            address = request.META.get("SCRIPT_NAME", "") + f"/c/{club.slug}/"
            messages.success(
                request,
                f"{club.name} is started at {request.get_host()}{address}, and stays at that "
                "address when other clubs start here. Welcome, coordinator!",
            )
            return redirect(address)
    context = {"form": form, "rule_choices": _rule_choices(form), "refused": refused}
    # What members will be told, before the club exists: the standard notice, filled in
    # from a new club's usual settings.
    context["privacy_notice"] = notice_text(Club(name="Your club"))
    response = render(request, "site/signup.html", context, status=429 if refused else 200)
    if refused:
        response["Retry-After"] = str(settings.CLUB_SIGNUP_WINDOW)
    return response


@require_http_methods(["GET", "HEAD", "POST"])
def first_setup(request):
    """An empty installation's setup page (front/first_setup.py): with the setup code from
    the server's log, the operator's login and the first club, who is then logged in at
    its home. Gone once the installation has a club or an operator's login."""
    if not waiting_for_setup():
        return render(request, "site/not_found.html", status=404)
    first_setup_code.announce_setup_code()  # a server started some other way prints it now
    bound = request.method == "POST"
    form = SetupForm(request.POST if bound else None)
    refused = None
    if bound:
        address = get_client_ip_address(request) or ""
        refused = first_setup_code.code_refusal(request.POST.get("setup_code", ""), address)
    if bound and form.is_valid() and refused is None:
        try:
            club = form.set_up()
        except first_setup_code.SetupDone:
            return render(request, "site/not_found.html", status=404)
        except ClubNotStarted as refusal:  # taken between the check and the write
            form.add_refusal(refusal)
        else:
            user = get_user_model().objects.get(username=form.cleaned_data["username"])
            login(request, user, backend="club.login_names.CaseInsensitiveModelBackend")
            messages.success(
                request,
                f"{club.name} is ready, at this site's address and at /c/{club.slug}/. "
                "Welcome! Your next steps are below.",
            )
            return redirect("/")
    if refused is not None and "setup_code" not in form.errors:
        form.add_error("setup_code", refused)
    context = {"form": form, "rule_choices": _rule_choices(form)}
    return render(request, "site/setup.html", context)


def _rule_choices(form):
    rules = {name: (title, words) for name, title, words in rule_set_options()}
    return [
        (radio, *rules.get(radio.data["value"], (radio.choice_label, "")))
        for radio in form["rule_set"]
    ]


@require_safe
def favicon(request):
    """Browsers ask for /favicon.ico on pages that link no icon (the admin's, a CSV's): the
    club's icon, not a 404. Not permanent: the static file's address changes with it."""
    return redirect(static("img/favicon-32.png"))


@require_safe
def web_app_manifest(request):
    """The manifest that makes the site installable ("Add to Home Screen"). Served at each
    club's address (`/c/<slug>/manifest.webmanifest`, and at the root for the club served
    there), so the installed app carries the club's name and opens at its home page; at the
    root of many clubs it is the site's, opening the list of clubs."""
    club = request.club
    response = JsonResponse(
        offline.manifest(club and club.name, reverse("home")),
        content_type="application/manifest+json",
    )
    # The icons' hashed addresses change with a deploy: ask each time, as for the worker.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def service_worker(request):
    """The service worker, at the site's root so that it can look after every club's table
    pages. Browsers check it for a new version on each visit: no-cache, never a stale one."""
    shell = offline.shell(offline_page=reverse("offline"))
    response = render(
        request,
        offline.WORKER_TEMPLATE,
        {"shell": json.dumps(shell)},
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def offline_page(request):
    """What the service worker shows for a page it may not keep, asked for without a
    connection. It names no club: it is kept once for every club on the device."""
    return render(request, offline.OFFLINE_TEMPLATE)


@require_GET
def menu(request):
    """Every link of the header on one page: on a phone the header keeps only the main ones."""
    return render(request, "front/menu.html")


@coordinator_required
def club_settings(request):
    club = request.club
    change = None
    if request.method == "POST":
        data = request.POST
        if ClubSettingsForm.KEEP in data:
            data = ClubSettingsForm.keeping_rule_set(data, club)
        form = ClubSettingsForm(data, instance=club)
        if form.is_valid():
            if form.changes_rule_set and not form.rule_set_confirmed:
                # A change of rule set asks first, saying what it affects; the entries
                # stay in the form, and its buttons save them with or without the change.
                change = rule_set_change(club, form.saved_rule_set, form.rule_set_name)
            elif form.discarded:
                pass  # options typed for a rule set not chosen: said, and asked again
            else:
                kept = ClubSettingsForm.KEEP in data
                form.save()
                messages.success(
                    request,
                    f"The club's settings are saved; the rule set stays {short_name(club.rule_set)}."
                    if kept
                    else "The club's settings are saved.",
                )
                return redirect("club_settings")
    elif request.htmx and "rule_set" in request.GET:
        # Choosing another rule set shows that rule set's options. The list sends only
        # itself and which rule set the page showed (the whole form would pass gunicorn's
        # limit on an address's length), so the other entries stay as they are on the page.
        form = ClubSettingsForm(request.GET, instance=club)
        form.errors.clear()
        context = {"form": form}
        if form.changes_rule_set:
            context["heads_up"] = rule_set_change(club, form.saved_rule_set, form.rule_set_name)
        return render(request, "front/settings.html#rule-options", context)
    else:
        form = ClubSettingsForm(instance=club)
    return render(request, "front/settings.html", {"form": form, "change": change})


@require_GET
@coordinator_required
def club_backup(request):
    """The club as one file to keep safe, or to move to another installation (see
    front/backup/): this club's rows and its own logins only."""
    # Written to a temporary file, then sent from it: the snapshot's transaction ends with
    # the export rather than waiting on a slow download, and the worker's memory stays small.
    file = tempfile.TemporaryFile()  # noqa: SIM115 - FileResponse closes it
    try:
        text = io.TextIOWrapper(file, encoding="utf-8", newline="\n")
        backup.write_backup(text, request.club)
        text.flush()
        text.detach()
    except BaseException:
        file.close()
        raise
    file.seek(0)
    response = FileResponse(
        file,
        as_attachment=True,
        filename=backup.backup_filename(request.club),
        content_type="application/json; charset=utf-8",
    )
    # Every login's password hash is in it: no browser or proxy may keep a copy.
    response["Cache-Control"] = "no-store"
    return response
