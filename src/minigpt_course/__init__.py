"""The course built around ``minigpt``: its lessons in order (``lessons``), the reader's workbook and the
graders of its exercises (``workbook``, ``checks``), and the ``minigpt`` commands that drive them
(``commands``: lesson, workbook, check, bench). It imports the library; the library never imports it."""
