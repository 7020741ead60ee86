"""Seating URLs; club/urls.py appends these (namespace "club")."""

from django.urls import path

from club.views import seating as views

_base = "sessions/<int:session_id>/seating/"

seating_urlpatterns = [
    path(_base, views.seating_page, name="seating"),
    path(_base + "manage/", views.manage, name="seating_manage"),
    path(_base + "print/", views.print_seating, name="seating_print"),
    path(_base + "make/", views.make, name="seating_make"),
    path(_base + "swap/", views.swap, name="seating_swap"),
    path(_base + "tables/<int:number>/lock/", views.lock, name="seating_lock"),
    path(_base + "tables/<int:number>/unlock/", views.unlock, name="seating_unlock"),
    path(_base + "publish/", views.publish, name="seating_publish"),
    path(_base + "unpublish/", views.unpublish, name="seating_unpublish"),
    path(_base + "late-arrival/", views.late_arrival, name="seating_late"),
    path(_base + "leaving-early/", views.leaving_early, name="seating_leaver"),
]
