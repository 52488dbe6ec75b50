import os
import uuid


def write_parts(directory, chunks):
    for seq, chunk in enumerate(chunks):
        name = f"{uuid.uuid4().hex[:12]}-{seq:04d}.part"
        with open(os.path.join(directory, name), "w") as fh:
            fh.write(chunk)


def merge_parts(directory):
    out = []
    for name in os.listdir(directory):
        with open(os.path.join(directory, name)) as fh:
            out.append(fh.read())
    return "".join(out)
