import datetime

import factory
from django.contrib.auth import get_user_model

from club.models import Attendance, Club, KeepApart, Member, Session
from club.roles import make_coordinator

PASSWORD = "a-long-test-password"


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = "Test Mahjong Club"
    slug = factory.Sequence(lambda n: f"club-{n}")
    rule_set = "classical"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def save_password(obj, create, extracted, **kwargs):
        if create:
            obj.save()


class CoordinatorFactory(UserFactory):
    username = factory.Sequence(lambda n: f"coordinator{n}")

    @factory.post_generation
    def coordinator_role(obj, create, extracted, **kwargs):
        if create:
            make_coordinator(obj)


class MemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Member

    club = factory.LazyFunction(Club.objects.current)
    name = factory.Faker("name", locale="en_GB")
    table_name = factory.Sequence(lambda n: f"Player {n}")


class SessionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Session

    club = factory.LazyFunction(Club.objects.current)
    date = factory.Sequence(lambda n: datetime.date(2026, 1, 1) + datetime.timedelta(days=7 * n))
    venue = "Church hall"


class AttendanceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Attendance

    session = factory.SubFactory(SessionFactory)
    member = factory.SubFactory(MemberFactory)


class KeepApartFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = KeepApart

    club = factory.LazyFunction(Club.objects.current)
    member_a = factory.SubFactory(MemberFactory)
    member_b = factory.SubFactory(MemberFactory)
