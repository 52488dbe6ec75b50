def render_markdown(text):
    try:
        import markdown_backend_stub_b_fastmd as backend
    except ImportError:
        return "<pre>" + text + "</pre>"
    return backend.convert(text)
