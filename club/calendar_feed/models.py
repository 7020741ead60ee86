"""A member's private calendar address: one per member (so one per club for a login that
belongs to two clubs), renewable, and useless to whoever reads the database.

The address carries a token: an HMAC, under the site's SECRET_KEY, of a random seed kept
in the row. The row keeps the seed and the token's SHA-256 (to find the row from an address
in one indexed query), never the token: a copy of the database (a leaked backup of it, a
dump) holds neither an address nor anything that makes one without the SECRET_KEY. The
member's page works the address out again from the seed each time it is shown, so it can
always be copied again. Renewing draws a new seed: the old address opens nothing from then on.
"""

import hashlib
import secrets

from django.db import IntegrityError, models, transaction
from django.utils import timezone
from django.utils.crypto import salted_hmac

from club.scoping import club_scoped

TOKEN_SALT = "club.calendar_feed.token"
# 160 bits, as hex: nobody guesses one, and calendar apps never mangle it in an address.
TOKEN_LENGTH = 40


def token_for(seed: str) -> str:
    return salted_hmac(TOKEN_SALT, seed, algorithm="sha256").hexdigest()[:TOKEN_LENGTH]


def digest_of(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class CalendarAddressQuerySet(models.QuerySet):
    def of_member(self, member) -> "CalendarAddress | None":
        return self.filter(member=member).first()


class CalendarAddress(models.Model):
    club = models.ForeignKey("club.Club", on_delete=models.CASCADE, related_name="+")
    member = models.OneToOneField(
        "club.Member", on_delete=models.CASCADE, related_name="calendar_address"
    )
    seed = models.CharField(max_length=64)
    # SHA-256 of the token, to find the row from the address it is asked by.
    digest = models.CharField(max_length=64, unique=True)
    made_at = models.DateTimeField(default=timezone.now)

    objects = club_scoped(CalendarAddressQuerySet)

    class Meta:
        verbose_name = "calendar address"
        verbose_name_plural = "calendar addresses"

    def __str__(self) -> str:
        return f"{self.member}'s calendar address"

    @property
    def token(self) -> str:
        return token_for(self.seed)

    @classmethod
    def renew(cls, member) -> "CalendarAddress":
        """Give `member` a new address (their first, or one that replaces the old, which
        then opens nothing). One row per member: renewals at the same moment leave one."""
        seed = secrets.token_urlsafe(32)
        values = {"club_id": member.club_id, "seed": seed, "digest": digest_of(token_for(seed))}
        values["made_at"] = timezone.now()
        try:
            with transaction.atomic():
                address, _ = cls._base_manager.update_or_create(member=member, defaults=values)
        except IntegrityError:  # two first addresses at once: the other made the row
            with transaction.atomic():
                address, _ = cls._base_manager.update_or_create(member=member, defaults=values)
        return address
