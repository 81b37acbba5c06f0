"""The web page of `leges serve`: play against agents, step through a record, edit the ruleset.

server.py is the ASGI app (Starlette + uvicorn, the optional extra `web`); session.py holds the
games and records; views.py builds what the page receives — one seat's view, never more.
"""
