"""A URL conf that serves the whole app under a path of its own (for a request's ``urlconf``)."""

from django.urls import include, path

urlpatterns = [path("mounted/", include("config.urls"))]
