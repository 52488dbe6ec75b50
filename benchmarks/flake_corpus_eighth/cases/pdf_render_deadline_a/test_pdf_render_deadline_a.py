import pdf_render_deadline_a_pdf as pdf

LINES = [f"{i:05d} Widget, blue, 3 pcs ........ {i * 3.1:10.2f} EUR" for i in range(1500)]
DEADLINE = 30.0


def test_invoice_pdf_renders_in_time():
    assert len(pdf.render(LINES, deadline_s=DEADLINE)) == 1500
