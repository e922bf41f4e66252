"""Publications as suppliers publish them, written by the tests: web pages and PDF reports.

- `web_page`: a supplier's saved page: navigation, a layout table around the content, a
  cookie banner table, one analysis table per waterworks in accordions (`<details>` with a
  `<summary>`) and a tab panel named by its tab, a two-row header (`Messwert` over
  `Minimum`/`Mittelwert`/`Maximum`), a reporting-limit column, a footer table;
- `ruled_report`: a laboratory's PDF: a ruled table over two pages with its header repeated,
  a header cell on two lines (`Bestimmungs-` `grenze`), a name wrapped in its cell, a soft
  hyphen, a `Jahresmittelwert` column and a limit column;
- `unruled_report`: a utility's PDF without ruling lines: columns only from text positions,
  a name wrapped onto a second line, a page number footer;
- `scanned_report`, `encrypted_report`, `damaged_report`: what must be refused.

Each document comes with the values it must import: (name, unit, statistic, value,
reporting limit), every one exactly as printed.
"""

from __future__ import annotations

from pathlib import Path

# ---------------------------------------------------------------------------- web page

NORD = [
    # name, unit, BG, min, mean, max, limit
    ("Nitrat (NO3-)", "mg/l", "0,5", "18,2", "21,4", "24,9", "50"),
    ("Calcium", "mg/l", "1", "88", "96,4", "101", ""),
    ("Blei", "mg/l", "0,001", "< BG", "< BG", "0,0012", "0,010"),
    ("Ionenbilanz", "%", "", "0,4", "1,1", "1,9", ""),
]
SUED = [
    # name, unit, value, limit
    ("pH-Wert (vor Ort)", "", "7,61", "6,5 - 9,5"),
    ("Leitfähigkeit bei 25 °C", "µS/cm", "612", "2790"),
    ("Sulfat (SO4 2-)", "mg/l", "84", "250"),
    ("Gesamthärte", "°dH", "16,3", ""),
]


def _nord_rows() -> str:
    return "\n".join(
        f"<tr><td>{n}</td><td>{u}</td><td>{bg}</td><td>{a}</td><td>{m}</td><td>{x}</td>"
        f"<td>{g}</td></tr>"
        for n, u, bg, a, m, x, g in NORD
    )


def _sued_rows() -> str:
    return "\n".join(
        f"<tr><td>{n}</td><td>{u}</td><td>{v}</td><td>{g}</td></tr>" for n, u, v, g in SUED
    )


WEB_PAGE = f"""<!DOCTYPE html>
<html lang="de"><head><meta charset="utf-8"><title>Trinkwasseranalyse | Stadtwerke</title></head>
<body>
<header><table class="topbar"><tr><td><a href="/">Start</a></td><td><a href="/strom">Strom</a></td>
<td><a href="/wasser">Wasser</a></td></tr></table></header>
<nav><table><tr><td><a href="/kontakt">Kontakt</a></td><td><a href="/impressum">Impressum</a>
</td></tr></table></nav>
<table class="layout" width="100%"><tr><td>
  <h1>Trinkwasseranalyse 2026</h1>
  <table class="cookie"><tr><td>Wir verwenden Cookies.</td><td><button>OK</button></td></tr>
  </table>
  <details open><summary>Wasserwerk Nord</summary>
  <table class="analyse">
    <thead>
      <tr><th rowspan="2">Parameter</th><th rowspan="2">Einheit</th>
          <th rowspan="2">Bestimmungs&shy;grenze</th><th colspan="3">Messwert</th>
          <th rowspan="2">Grenzwert TrinkwV</th></tr>
      <tr><th>Minimum</th><th>Mittelwert</th><th>Maximum</th></tr>
    </thead>
    <tbody>
{_nord_rows()}
    </tbody>
  </table></details>
  <div role="tablist"><button role="tab" id="tab-sued">Wasserwerk S&uuml;d</button></div>
  <div role="tabpanel" aria-labelledby="tab-sued">
  <table>
    <tr><th>Parameter</th><th>Einheit</th><th>Messwert</th><th>Grenzwert</th></tr>
{_sued_rows()}
  </table></div>
  <h2>Ansprechpartner</h2>
  <table><tr><td>Labor</td><td>Telefon 0123 456</td></tr><tr><td>E-Mail</td>
  <td>labor@example.org</td></tr></table>
</td></tr></table>
<footer><table><tr><td>&copy; Stadtwerke</td><td><a href="/datenschutz">Datenschutz</a></td>
</tr></table></footer>
</body></html>
"""


def web_page(directory: Path, name: str = "analyse.html") -> Path:
    path = directory / name
    path.write_text(WEB_PAGE, encoding="utf-8")
    return path


# ---------------------------------------------------------------------------- PDF reports

RULED_HEADER = ("Parameter", "Einheit", "Bestimmungs-\ngrenze", "Jahres-\nmittelwert", "Grenzwert")
RULED = [
    # name as printed (\n: a line break in the cell), unit, BG, mean, limit
    ("Wassertemperatur", "°C", "", "11,8", ""),
    ("pH-Wert", "", "", "7,55", "6,5 - 9,5"),
    ("Elektrische Leitfähigkeit\nbei 25 °C", "µS/cm", "", "615", "2790"),
    ("Calcium", "mg/l", "1", "101", ""),
    ("Magnesium", "mg/l", "0,5", "12,1", ""),
    ("Natrium", "mg/l", "0,5", "18,5", "200"),
    ("Kalium", "mg/l", "0,5", "2,3", ""),
    ("Chlorid", "mg/l", "1", "31", "250"),
    ("Sulfat", "mg/l", "1", "84", "250"),
    ("Nitrat", "mg/l", "0,5", "24,2", "50"),
    ("Nitrit", "mg/l", "0,01", "< 0,01", "0,5"),
    ("Ammonium", "mg/l", "0,02", "< BG", "0,5"),
    ("Fluorid", "mg/l", "0,1", "0,12", "1,5"),
    ("Eisen, gesamt", "mg/l", "0,01", "< 0,01", "0,2"),
    ("Mangan, gesamt", "mg/l", "0,005", "< 0,005", "0,05"),
    ("Aluminium", "mg/l", "0,01", "< BG", "0,2"),
    ("Bor", "mg/l", "0,02", "0,04", "1"),
    ("Arsen", "mg/l", "0,001", "< 0,001", "0,01"),
    ("Blei", "mg/l", "0,001", "< BG", "0,01"),
    ("Cadmium", "mg/l", "0,0003", "< 0,0003", "0,003"),
    ("Chrom", "mg/l", "0,0005", "< 0,0005", "0,025"),
    ("Kupfer", "mg/l", "0,005", "0,012", "2"),
    ("Nickel", "mg/l", "0,002", "< 0,002", "0,02"),
    ("Quecksilber", "mg/l", "0,0001", "< 0,0001", "0,001"),
    ("Selen", "mg/l", "0,001", "< 0,001", "0,01"),
    ("Uran", "mg/l", "0,0005", "0,0011", "0,01"),
    ("Benzol", "µg/l", "0,25", "< 0,25", "1"),
    ("1,2-Dichlorethan", "µg/l", "0,3", "< 0,3", "3"),
    ("Tetrachlorethen und\nTrichlorethen", "µg/l", "0,1", "< 0,1", "10"),
    ("Trihalogen\u00ad\nmethane, Summe", "µg/l", "0,1", "2,6", "50"),
    ("Tri\u00adchlor\u00admethan", "µg/l", "0,1", "1,8", ""),
    ("Gesamthärte", "°dH", "", "17,6", ""),
    ("Säurekapazität bis pH 4,3", "mmol/l", "0,05", "4,39", ""),
    ("Escherichia coli", "KBE/100 ml", "", "0", "0"),
    ("Coliforme Bakterien", "KBE/100 ml", "", "0", "0"),
    ("Koloniezahl bei 22 °C", "KBE/ml", "", "3", "100"),
    ("Koloniezahl bei 36 °C", "KBE/ml", "", "1", "100"),
]
RULED_CODES = {
    "Wassertemperatur": "temperatur",
    "pH-Wert": "ph_wert",
    "Elektrische Leitfähigkeit bei 25 °C": "elektrische_leitfaehigkeit",
    "Tetrachlorethen und Trichlorethen": "tetrachlorethen_trichlorethen",
    "Trihalogenmethane, Summe": "thm",
    "Trichlormethan": "trichlormethan",
    "Eisen, gesamt": "eisen",
    "Mangan, gesamt": "mangan",
    "1,2-Dichlorethan": "dichlorethan_1_2",
    "Säurekapazität bis pH 4,3": "saeurekapazitaet_ks43",
    "Escherichia coli": "e_coli",
    "Coliforme Bakterien": "coliforme_bakterien",
    "Koloniezahl bei 22 °C": "koloniezahl_22",
    "Koloniezahl bei 36 °C": "koloniezahl_36",
}

UNRULED_HEADER = ("Parameter", "Einheit", "Minimum", "Mittelwert", "Maximum")
UNRULED = [
    # name as printed (\n: wrapped onto the next line), unit, min, mean, max
    ("Nitrat", "mg/l", "18,2", "21,4", "24,9"),
    ("Sulfat", "mg/l", "80", "84", "88"),
    ("Calcitlösekapazität", "mg/l", "-3,1", "-2,0", "-0,8"),
    ("Säurekapazität bis\npH 4,3", "mmol/l", "4,2", "4,4", "4,6"),
    ("Calcium\n(Ca2+)", "mg/l", "94", "96,4", "99"),
    ("Chlorid", "mg/l", "28", "31", "35"),
    ("Natrium", "mg/l", "16", "18,5", "21"),
    ("Trübung", "NTU", "< 0,05", "0,08", "0,21"),
]


def printed(name: str) -> str:
    """Return a name as the import reads it: lines of a cell joined, soft hyphens dropped."""
    return name.replace("\u00ad\n", "").replace("\u00ad", "").replace("\n", " ")


FONT = "Vera"
"""A TrueType font that reportlab ships: its text layer keeps µ, ° and soft hyphens."""


def _font() -> str:
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if FONT not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TTFont(FONT, "Vera.ttf"))
    return FONT


def _styles():  # type: ignore[no-untyped-def]
    from reportlab.lib.styles import getSampleStyleSheet

    styles = getSampleStyleSheet()
    for style in styles.byName.values():
        style.fontName = _font()
    return styles


def ruled_report(directory: Path, name: str = "pruefbericht.pdf") -> Path:
    """Write a ruled table that runs onto a second page, its header repeated there."""
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    path = directory / name
    styles = _styles()
    doc = SimpleDocTemplate(str(path), pagesize=A4, title="Prüfbericht")
    rows = [list(RULED_HEADER)] + [list(r) for r in RULED]
    table = Table(rows, repeatRows=1, colWidths=[170, 70, 80, 80, 80])
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                ("FONTNAME", (0, 0), (-1, -1), _font()),
                ("FONTSIZE", (0, 0), (-1, -1), 9),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    story = [
        Paragraph("Prüfbericht 2026-0412", styles["Title"]),
        Paragraph("Auftraggeber: Stadtwerke Beispielstadt", styles["Normal"]),
        Spacer(1, 200),
        Paragraph("Trinkwasser Wasserwerk Nord, Jahreswerte 2026", styles["Heading2"]),
        table,
        Spacer(1, 12),
        Paragraph("< BG: kleiner als die Bestimmungsgrenze", styles["Normal"]),
    ]
    doc.build(story)
    return path


def unruled_report(directory: Path, name: str = "jahreswerte.pdf") -> Path:
    """Write a table without any lines: columns only from where the words are printed."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    path = directory / name
    c = canvas.Canvas(str(path), pagesize=A4)
    font = _font()
    c.setFont(font, 14)
    c.drawString(60, 780, "Trinkwasserqualität 2026")
    c.setFont(font, 10)
    c.drawString(60, 750, "Versorgungsgebiet Seeland, Ortsnetz")
    x_name, x_unit, x_values = 60, 250, (330, 410, 490)
    y = 720
    c.setFont(font, 10)
    c.drawString(x_name, y, UNRULED_HEADER[0])
    c.drawString(x_unit, y, UNRULED_HEADER[1])
    for x, head in zip(x_values, UNRULED_HEADER[2:], strict=True):
        c.drawRightString(x + 40, y, head)
    c.setFont(font, 10)
    for name_text, unit, *values in UNRULED:
        y -= 16
        lines = name_text.split("\n")
        c.drawString(x_name, y, lines[0])
        c.drawString(x_unit, y, unit)
        for x, value in zip(x_values, values, strict=True):
            c.drawRightString(x + 40, y, value)
        for more in lines[1:]:
            y -= 12
            c.drawString(x_name, y, more)
    c.setFont(font, 8)
    c.drawString(60, 60, "Seite 1 von 1")
    c.showPage()
    c.save()
    return path


OVERLAPPING = (
    # (name, unit, value): each name drawn so long that its unit, drawn after it in the
    # next column, starts inside it; the last row is drawn unit first, name after.
    ("Oxidierbarkeit (KMnO4)", "mg/l O2", "0,8"),
    ("Färbung (SAK 436 nm)", "m-1", "0,05"),
    ("Säurekapazität bis pH 4,3", "mmol/l", "2,4"),
    ("Leitfähigkeit bei 25 °C", "µS/cm", "512"),
)
OVERLAPPING_CODES = {
    "Oxidierbarkeit (KMnO4)": "oxidierbarkeit",
    "Färbung (SAK 436 nm)": "faerbung",
    "Säurekapazität bis pH 4,3": "saeurekapazitaet_ks43",
    "Leitfähigkeit bei 25 °C": "elektrische_leitfaehigkeit",
}


def overlapping_report(directory: Path, name: str = "eng.pdf") -> Path:
    """Write a table without lines whose names run into the unit column.

    The unit column starts at x = 140, inside each long name, as in a report whose name
    column is too narrow: page order keeps each printed string whole, position order
    interleaves their characters.
    """
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    path = directory / name
    c = canvas.Canvas(str(path), pagesize=A4)
    font = _font()
    c.setFont(font, 12)
    c.drawString(60, 780, "Trinkwasseranalyse Hochbehälter Nord")
    c.setFont(font, 10)
    x_name, x_unit, x_value = 60, 150, 300
    y = 740
    c.drawString(x_name, y, "Parameter")
    c.drawString(x_unit, y, "Einheit")
    c.drawRightString(x_value, y, "Messwert")
    for n, (name_text, unit, value) in enumerate(OVERLAPPING):
        y -= 16
        if n == len(OVERLAPPING) - 1:  # the unit drawn before the name it overlaps
            c.drawString(x_unit - 10, y, unit)
            c.drawString(x_name, y, name_text)
        else:
            c.drawString(x_name, y, name_text)
            c.drawString(x_unit - 10, y, unit)
        c.drawRightString(x_value, y, value)
    c.showPage()
    c.save()
    return path


def scanned_report(directory: Path, name: str = "scan.pdf") -> Path:
    """Write a page that is only an image of a table: no text layer."""
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    try:
        from PIL import Image
    except ModuleNotFoundError:  # pragma: no cover - Pillow comes with reportlab
        raise
    image = Image.new("L", (200, 100), 255)
    for x in range(20, 180):
        image.putpixel((x, 50), 0)
    path = directory / name
    c = canvas.Canvas(str(path), pagesize=A4)
    c.drawImage(ImageReader(image), 60, 500, width=400, height=200)
    c.showPage()
    c.save()
    return path


def encrypted_report(directory: Path, name: str = "geschuetzt.pdf") -> Path:
    from reportlab.lib import pdfencrypt
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen import canvas

    path = directory / name
    encrypt = pdfencrypt.StandardEncryption("geheim", canPrint=0)
    c = canvas.Canvas(str(path), pagesize=A4, encrypt=encrypt)
    c.drawString(60, 700, "Parameter   Einheit   Messwert")
    c.drawString(60, 684, "Nitrat   mg/l   21")
    c.showPage()
    c.save()
    return path


def damaged_report(directory: Path, name: str = "kaputt.pdf") -> Path:
    """Write the first 700 bytes of a real report: a download that broke off."""
    whole = unruled_report(directory, "whole.pdf").read_bytes()
    path = directory / name
    path.write_bytes(whole[:700])
    return path
