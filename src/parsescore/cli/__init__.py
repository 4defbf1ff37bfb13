"""The command line: ``main`` builds one typer app from the kind registry (``main.py``); the
flags every command shares (``common.py``); the commands that are not a kind's (``compare``,
``schema``, ``report``, ``predict``). A kind's own command is built from its declared options."""
