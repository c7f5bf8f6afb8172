"""Date and number formats for the languages Django does not ship (settings.FORMAT_MODULE_PATH).

Month and day names come from our catalogues (locale/), like every other word.
"""
