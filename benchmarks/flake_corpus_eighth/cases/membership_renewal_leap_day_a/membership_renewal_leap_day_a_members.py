"""Club memberships renew on the anniversary of joining."""
import datetime


def renewal_date(joined):
    return joined.replace(year=joined.year + 1)
