"""Text progress bar for the migration CLI."""
import shutil


def progress_line(done, total, label="migrating", width=None):
    width = width or shutil.get_terminal_size(fallback=(80, 24)).columns
    prefix = f"{label} {done}/{total} ["
    suffix = f"] {100 * done // total:3d}%"
    room = max(10, width - len(prefix) - len(suffix))
    filled = room * done // total
    return prefix + "#" * filled + "." * (room - filled) + suffix
