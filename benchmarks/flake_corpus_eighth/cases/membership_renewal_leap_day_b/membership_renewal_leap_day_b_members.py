"""Club memberships renew on the anniversary of joining."""
import datetime


def renewal_date(joined):
    try:
        return joined.replace(year=joined.year + 1)
    except ValueError:  # 29 February
        return joined.replace(year=joined.year + 1, day=28)
