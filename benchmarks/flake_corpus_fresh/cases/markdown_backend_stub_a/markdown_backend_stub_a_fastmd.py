def convert(text):
    out = []
    for line in text.splitlines():
        if line.startswith("# "):
            out.append(f"<h1>{line[2:]}</h1>")
        elif line:
            out.append(f"<p>{line}</p>")
    return "".join(out)
