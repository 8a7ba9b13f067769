"""One module per ``kifu`` subcommand; each exposes ``register(subparsers)``.

A module's ``register`` adds its parser and sets ``func`` to a callable taking the
parsed arguments and returning the exit status.
"""
