"""What things are called, in the reader's language: shared by every page, socket and export.

- ``catalogue`` — each game's name and one-line description.
- ``names`` — what a seat is called on a page (a person, a guest, a computer).
- ``computers`` — what a computer player is called ("Computer 3 (Strong)"), by number and level.
- ``i18n`` — a table socket's language, and the words engines put into their error sentences.

Nothing here changes a game or reads its log.
"""
