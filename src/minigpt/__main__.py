"""``python -m minigpt``: the same as the ``minigpt`` command."""

from minigpt.cli import main

raise SystemExit(main())
