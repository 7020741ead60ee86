"""Scoresheets, corrections and paper sheets. Mounted under /scores/."""

from django.urls import path

from scoring import views

app_name = "scoring"

urlpatterns = [
    path("matches/<int:pk>/", views.scoresheet_page, name="scoresheet"),
    path("matches/<int:pk>/hands/<int:number>/correct/", views.correct, name="correct"),
    path("matches/<int:pk>/paper/", views.paper, name="paper"),
    path("sessions/<int:pk>/changes/", views.changes, name="changes"),
    path("sessions/<int:pk>/blank-sheets/", views.blank_sheets, name="blank_sheets"),
]
