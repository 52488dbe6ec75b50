import feature_flags_b_flags as flags


def checkout_steps():
    steps = ["cart", "payment", "confirm"]
    if flags.enabled("express_checkout"):
        steps.remove("cart")
    return steps
