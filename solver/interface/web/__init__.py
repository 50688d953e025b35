"""`chargeopt serve`: the board in a browser (needs the `web` extra: Starlette, uvicorn, tomli-w)."""
