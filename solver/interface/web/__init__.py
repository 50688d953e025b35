"""`chargeopt serve`: the board in a browser (the `web` extra: Starlette, uvicorn, tomli-w)."""
