"""Kreyòl ayisyen: Haiti writes dates and numbers the French way (29 novanm 2025, 12,5, 1 250)."""

DATE_FORMAT = "j F Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j F Y, H:i"
YEAR_MONTH_FORMAT = "F Y"
MONTH_DAY_FORMAT = "j F"
SHORT_DATE_FORMAT = "d/m/Y"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
FIRST_DAY_OF_WEEK = 1  # lendi
DECIMAL_SEPARATOR = ","
THOUSAND_SEPARATOR = "\xa0"  # a no-break space
NUMBER_GROUPING = 3
