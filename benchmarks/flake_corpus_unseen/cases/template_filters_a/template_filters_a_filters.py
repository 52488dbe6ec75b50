"""Built-in filters of the shop templates."""
from decimal import Decimal

from template_filters_a_templates import register_filter


@register_filter("money")
def money(cents):
    return f"{Decimal(cents) / 100:,.2f} EUR"
