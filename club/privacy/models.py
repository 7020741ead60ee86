"""The erasure list: which members' personal details were erased, when and by whom. It holds
none of the erased details, only the member's lasting id (`Member.uid`), so that a backup
written before the erasure and restored later is erased again on import (front/backup/)."""

from django.conf import settings
from django.db import models

from club.scoping import club_scoped


class Erasure(models.Model):
    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="+")
    member = models.OneToOneField("club.Member", on_delete=models.PROTECT, related_name="erasure")
    member_uid = models.UUIDField(db_index=True)
    erased_at = models.DateTimeField()
    # Empty for the scheduled erasure (`manage.py erase_expired_details`) or a login since
    # removed; `automatic` says which.
    erased_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    automatic = models.BooleanField(default=False)

    objects = club_scoped()

    class Meta:
        ordering = ["erased_at", "pk"]

    def __str__(self) -> str:
        return f"{self.member} erased on {self.erased_at:%Y-%m-%d}"

    @property
    def by_words(self) -> str:
        if self.automatic:
            return "automatically, as the club's setting asks"
        if self.erased_by is None:
            return "by a coordinator"
        return f"by {self.erased_by.get_username()}"
