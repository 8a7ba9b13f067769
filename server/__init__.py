"""Kifu's outer layer: the event store, the live feed, the dashboard and the ``kifu`` command."""
