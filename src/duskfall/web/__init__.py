"""The web app: game list, live spectator and replay pages, prompt inspector, human seats.

``duskfall web`` serves it (extra ``[web]``). :func:`duskfall.web.app.create_app` builds the
FastAPI application; the modules below it that hold no web code (``timeline``, ``present``,
``human``) are importable without FastAPI.
"""
