import shutil


def render(rows, width=None):
    width = width or shutil.get_terminal_size().columns
    return "\n".join(" | ".join(rows_i)[:width] for rows_i in rows)
