"""Automatic checks for the lessons' "write it yourself" exercises, one module per lesson
(``minigpt.checks.storage`` for lesson ``tensor/storage`` …): a reader's function goes in; the check
prints what it expected and what it got, in the reader's terms, or that every check passed."""
