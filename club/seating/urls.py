"""Seating URLs, included by club/urls.py under sessions/<int:session_id>/seating/."""

from django.urls import path

from club.seating import views

urlpatterns = [
    path("", views.seating_page, name="seating"),
    path("manage/", views.manage, name="seating_manage"),
    path("print/", views.print_seating, name="seating_print"),
    path("make/", views.make, name="seating_make"),
    path("make-from-replies/", views.make_from_replies, name="seating_make_from_replies"),
    path("reroll/", views.reroll, name="seating_reroll"),
    path("undo/", views.undo, name="seating_undo"),
    path("swap/", views.swap, name="seating_swap"),
    path("tables/<int:number>/lock/", views.set_lock, {"locked": True}, name="seating_lock"),
    path("tables/<int:number>/unlock/", views.set_lock, {"locked": False}, name="seating_unlock"),
    path("publish/", views.publish, name="seating_publish"),
    path("unpublish/", views.unpublish, name="seating_unpublish"),
    path("late-arrival/", views.late_arrival, name="seating_late"),
    path("leaving-early/", views.leaving_early, name="seating_leaver"),
]
