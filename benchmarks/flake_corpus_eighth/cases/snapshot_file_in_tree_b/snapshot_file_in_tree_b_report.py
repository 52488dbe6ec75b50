"""Plain-text monthly report."""


def render(rows, out_path):
    with open(out_path, "w") as fh:
        for i, (name, amount) in enumerate(rows):
            fh.write(f"{name:<20}{amount:>12.2f}\n")
            if i % 100 == 0:
                fh.flush()
