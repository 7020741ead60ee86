"""The site's addresses and one more, /failing/, whose view fails with a member's details in
its local variables, for the tests of what a server error's report carries
(tests/test_error_reports.py) and which headers every answer carries."""

from django.urls import path

from club.models import Member
from config.urls import handler400, handler500
from config.urls import urlpatterns as site_urlpatterns

FAILURE = "The standings could not be drawn"


def failing_view(request):
    member = Member.objects.order_by("pk").first()
    member_name, member_email = member.name, member.email  # noqa: F841 (in the report's frame)
    raise RuntimeError(FAILURE)


urlpatterns = [path("failing/", failing_view), *site_urlpatterns]
__all__ = ["urlpatterns", "handler400", "handler500"]
