"""The web app: game list, live spectator and replay pages, prompt inspector, human seats.

``duskfall web`` serves it (extra ``[web]``). :func:`duskfall.web.app.create_app` builds the
FastAPI application from routers by concern (``site_routes``: pages and lists,
``game_routes``: one game, ``socket_routes``: its WebSocket) over one ``Gates`` object
(tokens, lookups, body limits); the modules that hold no web code (``timeline``,
``present``, ``human``) are importable without FastAPI.
"""
