import html_class_attr_render_b_widgets as widgets


def test_invalid_email_input_markup():
    html = widgets.render_input("email", "ana@", type="email", invalid=True)
    assert html == '<input type="email" name="email" value="ana@" class="form-control is-invalid">'


def test_value_is_escaped():
    assert 'value="&lt;b&gt;"' in widgets.render_input("q", "<b>")
