"""Django's own sentences that our pages show, for makemessages to put into our catalogues.

Django ships no Kreyòl or Tagalog catalogue, so the sign-in and sign-up forms (labels, help texts,
validation errors) and the month names in dates would stay English. Listing their exact msgids here
puts them in locale/{ht,tl}; our catalogue (LOCALE_PATHS) then answers for Django's code too. This
module is never imported. Keep the msgids byte for byte as Django writes them (curly apostrophes).
"""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

FORMS = (
    # django.contrib.auth: the user model and forms.
    _("username"),
    _("Password"),
    _("Password confirmation"),
    _("Enter the same password as before, for verification."),
    _("Required. 150 characters or fewer. Letters, digits and @/./+/-/_ only."),
    _("A user with that username already exists."),
    _("The two password fields didn’t match."),
    _("Please enter a correct %(username)s and password. Note that both fields may be case-sensitive."),
    _("This account is inactive."),
    _("Enter a valid username. This value may contain only letters, numbers, and @/./+/-/_ characters."),
    # django.contrib.auth.password_validation (settings.AUTH_PASSWORD_VALIDATORS).
    _("Your password can’t be too similar to your other personal information."),
    _("The password is too similar to the %(verbose_name)s."),
    ngettext_lazy(
        "Your password must contain at least %(min_length)d character.",
        "Your password must contain at least %(min_length)d characters.",
        "min_length",
    ),
    ngettext_lazy(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
        "min_length",
    ),
    _("Your password can’t be a commonly used password."),
    _("This password is too common."),
    # django.forms.
    _("This field is required."),
    _("Select a valid choice. %(value)s is not one of the available choices."),
    ngettext_lazy(
        "Ensure this value has at most %(limit_value)d character (it has %(show_value)d).",
        "Ensure this value has at most %(limit_value)d characters (it has %(show_value)d).",
        "limit_value",
    ),
)

# django.utils.dates: the month names of DATE_FORMAT "j F Y" (ht) and "F j, Y" (tl).
MONTHS = (
    _("January"),
    _("February"),
    _("March"),
    _("April"),
    _("May"),
    _("June"),
    _("July"),
    _("August"),
    _("September"),
    _("October"),
    _("November"),
    _("December"),
)
