"""Supplier tables written for the tests, in the layouts and spellings of real publications.

Each table is a list of rows: the published name, the unit cell, the value cells, and what
the name must become: a code, `code:statistic` when the name carries a statistic, or
`!status` for a name that must stay unmatched. The tests write the tables as the files a
supplier would publish (semicolon CSV with title lines, comma CSV, Excel), import them into
a copy of the golden input and build the result; every (name, unit) pair must come out as
listed here, so no name can be mapped to a wrong code unnoticed.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Table:
    file: str
    title: tuple[str, ...]
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    """name, unit, cells...; the expectation is kept apart in `expect`."""
    expect: tuple[str, ...]
    zone_id: int
    document_id: str
    sampled_at: dt.date | None
    sample_point: str | None = None
    delimiter: str = ";"
    encoding: str = "utf-8"


def _table(rows: list[tuple[str, ...]]) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    return tuple(r[:-1] for r in rows), tuple(r[-1] for r in rows)


# ---------------------------------------------------------------------------- A: one value
# A city utility's annual analysis: semicolon CSV from German Excel, title lines, one value
# column, a limit column and a remark column; formulas and on-site markers in the names.
_A = [
    ("Wassertemperatur (vor Ort)", "°C", "11,8", "", "", "temperatur"),
    ("pH-Wert (vor Ort)", "", "7,61", "6,5 - 9,5", "", "ph_wert"),
    (
        "Elektrische Leitfähigkeit bei 25 °C",
        "µS/cm",
        "612",
        "2790",
        "",
        "elektrische_leitfaehigkeit",
    ),
    ("Trübung", "FNU", "0,08", "1,0", "", "truebung"),
    ("Färbung (SAK 436 nm)", "1/m", "< 0,1", "0,5", "", "faerbung"),
    ("SAK 254 nm", "1/cm", "0,021", "", "", "spektraler_absorptionskoeffizient_254nm"),
    ("Geruch (qualitativ)", "", "ohne", "annehmbar", "", "geruch"),
    ("Geschmack", "", "ohne", "annehmbar", "", "geschmack"),
    ("Aussehen", "", "klar", "", "", "!not_in_register"),
    ("Sauerstoff (O2)", "mg/l", "9,8", "", "", "sauerstoff"),
    ("Calcium (Ca2+)", "mg/l", "96,4", "", "", "calcium"),
    ("Magnesium (Mg2+)", "mg/l", "12,1", "", "", "magnesium"),
    ("Natrium (Na+)", "mg/l", "18,5", "200", "", "natrium"),
    ("Kalium (K+)", "mg/l", "2,3", "", "", "kalium"),
    ("Ammonium (NH4+)", "mg/l", "< 0,02", "0,5", "", "ammonium"),
    ("Eisen, gesamt (Fe)", "mg/l", "< 0,01", "0,2", "", "eisen"),
    ("Mangan, gesamt (Mn)", "mg/l", "< 0,005", "0,05", "", "mangan"),
    ("Chlorid (Cl-)", "mg/l", "31", "250", "", "chlorid"),
    ("Sulfat (SO4 2-)", "mg/l", "84", "250", "", "sulfat"),
    ("Nitrat (NO3-)", "mg/l", "21,4", "50", "", "nitrat"),
    ("Nitrit (NO2-)", "mg/l", "< 0,01", "0,5", "", "nitrit"),
    ("Fluorid (F-)", "mg/l", "0,12", "1,5", "", "fluorid"),
    ("Hydrogencarbonat (HCO3-)", "mg/l", "268", "", "", "hydrogencarbonat"),
    ("ortho-Phosphat (PO4 3-)", "mg/l", "< 0,05", "", "", "phosphat"),
    ("Silikat (als SiO2)", "mg/l", "14,2", "", "", "silikat"),
    ("Säurekapazität bis pH 4,3", "mmol/l", "4,39", "", "", "saeurekapazitaet_ks43"),
    ("Basekapazität bis pH 8,2", "mmol/l", "0,31", "", "", "basekapazitaet_kb82"),
    ("Gesamthärte", "°dH", "16,3", "", "", "gesamthaerte"),
    ("Karbonathärte", "°dKH", "12,3", "", "", "karbonathaerte"),
    ("Härtebereich nach WRMG", "", "hart", "", "", "haertebereich"),
    ("Summe Erdalkalien", "mmol/l", "2,91", "", "", "summe_erdalkalien"),
    ("Calcitlösekapazität", "mg/l CaCO3", "-3,1", "5", "", "calcitloesekapazitaet"),
    ("pH-Wert nach Calcitsättigung", "", "7,38", "", "", "ph_calcitsaettigung"),
    ("Sättigungsindex Calcit", "", "0,23", "", "", "saettigungsindex_calcit"),
    ("Ionenbilanz", "%", "1,4", "", "Kontrollwert", "!not_in_register"),
    ("Ionenstärke", "mmol/l", "8,9", "", "", "!not_in_register"),
    ("Pufferkapazität", "mmol/l", "0,42", "", "", "!not_in_register"),
    ("Korrosionsquotient S1", "", "0,6", "", "DIN EN 12502", "!not_in_register"),
    ("Säurekapazität bis pH 8,2", "mmol/l", "< 0,05", "", "", "!not_in_register"),
    ("Calcitabscheidekapazität", "mg/l CaCO3", "3,1", "", "", "!not_in_register"),
    ("TOC", "mg/l C", "0,9", "", "", "toc"),
    ("DOC", "mg C/l", "0,8", "", "", "doc"),
    ("Oxidierbarkeit (Mn VII → II)", "mg/l O2", "0,6", "5", "", "oxidierbarkeit"),
    ("Koloniezahl bei 22 °C", "KBE/ml", "3", "100", "", "koloniezahl_22"),
    ("Koloniezahl bei 36 °C", "KBE / ml", "1", "100", "", "koloniezahl_36"),
    ("Koloniezahl bei 20 °C", "KBE/ml", "2", "", "alte Methode", "!not_in_register"),
    ("Coliforme Bakterien", "KBE/100ml", "0", "0", "", "coliforme_bakterien"),
    ("Escherichia coli (E. coli)", "MPN/100 ml", "0", "0", "", "e_coli"),
    ("Intestinale Enterokokken", "KBE/100 ml", "0", "0", "", "enterokokken"),
    (
        "Clostridium perfringens (einschl. Sporen)",
        "KBE/100 ml",
        "0",
        "0",
        "",
        "clostridium_perfringens",
    ),
    ("Pseudomonas aeruginosa", "KBE/100 ml", "0", "", "", "pseudomonas_aeruginosa"),
    ("Legionella spec.", "KBE/100 ml", "< 1", "100", "", "legionella"),
    ("Aluminium (Al)", "mg/l", "< 0,01", "0,2", "", "aluminium"),
    ("Antimon (Sb)", "µg/l", "< 1", "5", "", "antimon"),
    ("Arsen (As)", "µg/l", "< 1", "10", "", "arsen"),
    ("Blei (Pb)", "mg/l", "< 0,001", "0,01", "", "blei"),
    ("Bor (B)", "mg/l", "0,04", "1", "", "bor"),
    ("Cadmium (Cd)", "µg/l", "< 0,3", "3", "", "cadmium"),
    ("Chrom (Cr)", "µg/l", "< 1", "25", "", "chrom"),
    ("Kupfer (Cu)", "mg/l", "0,012", "2", "", "kupfer"),
    ("Nickel (Ni)", "µg/l", "< 2", "20", "", "nickel"),
    ("Quecksilber (Hg)", "µg/l", "< 0,1", "1", "", "quecksilber"),
    ("Selen (Se)", "µg/l", "< 1", "10", "", "selen"),
    ("Uran (U)", "µg/l", "0,9", "10", "", "uran"),
    ("Cyanid gesamt", "mg/l", "< 0,005", "0,05", "", "cyanid"),
    ("Benzol", "µg/l", "< 0,1", "1", "", "benzol"),
    ("1,2-Dichlorethan", "µg/l", "< 0,1", "3", "", "dichlorethan_1_2"),
    (
        "Tetrachlorethen und Trichlorethen (Summe)",
        "µg/l",
        "< 0,2",
        "10",
        "",
        "tetrachlorethen_trichlorethen",
    ),
    ("Trihalogenmethane (Summe)", "mg/l", "0,0021", "0,05", "", "thm"),
    ("Bromat", "µg/l", "< 2", "10", "", "bromat"),
    ("Chlorat", "µg/l", "< 10", "70", "", "chlorat"),
    ("Chlorit", "µg/l", "< 10", "200", "", "chlorit"),
    ("Benzo-(a)-pyren", "µg/l", "< 0,002", "0,01", "", "benzo_a_pyren"),
    ("PAK (Summe)", "µg/l", "n.n.", "0,1", "", "pak"),
    ("PAK (EPA)", "µg/l", "< 0,05", "", "16 Einzelstoffe", "!not_in_register"),
    ("Vinylchlorid", "µg/l", "< 0,1", "0,5", "", "vinylchlorid"),
    ("Acrylamid", "µg/l", "< 0,03", "0,1", "", "acrylamid"),
    ("Epichlorhydrin", "µg/l", "< 0,03", "0,1", "", "epichlorhydrin"),
    ("Pflanzenschutzmittel gesamt", "µg/l", "< 0,05", "0,5", "", "pestizide_gesamt"),
    ("Atrazin", "µg/l", "< 0,02", "0,1", "", "atrazin"),
    ("Desethylatrazin", "µg/l", "0,03", "0,1", "", "desethylatrazin"),
    ("Bentazon", "µg/l", "< 0,02", "0,1", "", "bentazon"),
    ("Glyphosat", "µg/l", "< 0,02", "0,1", "", "glyphosat"),
    ("AMPA", "µg/l", "< 0,05", "", "Metabolit", "ampa"),
    (
        "Desphenyl-Chloridazon",
        "µg/l",
        "0,21",
        "",
        "nicht relevanter Metabolit",
        "desphenylchloridazon",
    ),
    ("Summe PFAS-20", "µg/l", "< 0,01", "0,1", "", "pfas_summe_20"),
    ("Summe PFAS-4", "ng/l", "< 2", "20", "ab 2028", "pfas_summe_4"),
    ("PFOA", "ng/l", "< 1", "", "", "pfoa"),
    ("PFOS", "ng/l", "< 1", "", "", "pfos"),
    ("Radon-222", "Bq/l", "12", "100", "", "radon_222"),
    ("Tritium", "Bq/L", "< 8", "100", "", "tritium"),
    ("Richtdosis", "mSv/a", "< 0,1", "0,1", "", "richtdosis"),
    ("Nitrat-N", "mg/l", "4,8", "", "als Stickstoff", "!different_quantity"),
    ("Eisen gelöst", "mg/l", "< 0,01", "", "filtriert", "!different_quantity"),
    ("m,p-Xylol", "µg/l", "< 0,2", "", "", "!not_in_register"),
]
A_ROWS, A_EXPECT = _table(_A)
A = Table(
    file="stadtwerke-nord-analyse-2026.csv",
    title=("Trinkwasseranalyse 2026", "Stadtwerke Nord, Wasserwerk Heide", ""),
    header=("Parameter", "Einheit", "Messwert", "Grenzwert TrinkwV", "Bemerkung"),
    rows=A_ROWS,
    expect=A_EXPECT,
    zone_id=11,
    document_id="wk-2026",
    sampled_at=dt.date(2026, 6, 15),
    sample_point="Wasserwerk Heide, Ausgang",
)

# ---------------------------------------------------------------------------- B: statistics
# A water association's yearly summary: comma CSV, one column per statistic, upper case,
# lost umlauts, units in the names, typos.
_B = [
    ("TEMPERATUR", "°C", "12", "9,8", "11,2", "13,1", "temperatur"),
    ("PH-WERT", "", "12", "7,45", "7,58", "7,71", "ph_wert"),
    ("LEITFAEHIGKEIT (25°C)", "µS/cm", "12", "540", "561", "590", "elektrische_leitfaehigkeit"),
    ("Truebung", "NTU", "12", "< 0,05", "0,06", "0,21", "truebung"),
    ("Calcium [mg/l]", "", "4", "88", "90", "93", "calcium"),
    ("Magnesium [mg/l]", "", "4", "10,4", "10,9", "11,6", "magnesium"),
    ("Natrium mg/l", "", "4", "15", "16", "17", "natrium"),
    ("Kalium in mg/l", "", "4", "1,9", "2,0", "2,2", "kalium"),
    ("Chlorid mg/l", "", "4", "28", "29", "31", "chlorid"),
    ("Sulfat [mg/l]", "", "4", "70", "74", "79", "sulfat"),
    ("Nitrat [mg/l]", "", "12", "18,2", "24,6", "53,1", "nitrat"),
    ("Hydrogenkarbonat", "mg/l", "4", "250", "255", "262", "hydrogencarbonat"),
    ("Gesamthaerte", "° dH", "4", "14,5", "14,9", "15,4", "gesamthaerte"),
    ("Karbonathaerte", "°KH", "4", "11,4", "11,6", "12", "karbonathaerte"),
    ("Kieselsaeure (SiO2)", "mg/l", "4", "12", "13", "14", "silikat"),
    ("Eisen (Fe) gesamt", "mg/l", "12", "< 0,01", "< 0,01", "0,02", "eisen"),
    ("Mangan", "µg/l", "12", "< 5", "< 5", "< 5", "mangan"),
    ("Ammonium", "mg/l", "12", "< 0,02", "< 0,02", "0,03", "ammonium"),
    ("Nitrit", "mg/l", "12", "< 0,01", "< 0,01", "< 0,01", "nitrit"),
    ("Fluorid", "mg/l", "4", "0,1", "0,11", "0,12", "fluorid"),
    ("Bor", "mg/l", "2", "0,03", "0,03", "0,04", "bor"),
    ("Uran", "µg/l", "2", "0,5", "0,6", "0,7", "uran"),
    ("Arsen", "mg/l", "2", "< 0,001", "< 0,001", "< 0,001", "arsen"),
    ("Blei", "µg/l", "2", "< 1", "< 1", "1,2", "blei"),
    ("Kupfer", "mg/l", "2", "0,005", "0,008", "0,011", "kupfer"),
    ("Nickel", "µg/l", "2", "< 2", "< 2", "< 2", "nickel"),
    ("Kadmium", "µg/l", "2", "< 0,3", "< 0,3", "< 0,3", "cadmium"),
    ("Zink", "mg/l", "2", "< 0,01", "0,01", "0,02", "zink"),
    ("Chrom gesamt", "µg/l", "2", "< 1", "< 1", "< 1", "chrom"),
    ("Koloniezahl 22°C", "KBE/1ml", "52", "0", "1", "12", "koloniezahl_22"),
    ("Koloniezahl 36°C", "KBE/1ml", "52", "0", "0", "4", "koloniezahl_36"),
    ("Coliforme Keime", "/100 ml", "52", "0", "0", "0", "coliforme_bakterien"),
    ("E.coli", "KBE/100ml", "52", "0", "0", "0", "e_coli"),
    ("Enterokokken", "KBE/100ml", "52", "0", "0", "0", "enterokokken"),
    ("Clostridium perfringens", "KBE/100ml", "12", "0", "0", "0", "clostridium_perfringens"),
    ("SAK 436", "m-1", "4", "< 0,1", "< 0,1", "0,1", "faerbung"),
    ("Oxidierbarkeit", "mg/l O2", "4", "0,5", "0,6", "0,8", "oxidierbarkeit"),
    ("Organisch gebundener Kohlenstoff gesamt", "mg/l", "4", "0,8", "0,9", "1,0", "toc"),
    ("Freie Kohlensaeure", "mg/l", "4", "11", "13", "15", "freie_kohlensaeure"),
    ("Sauerstoff geloest", "mg/l", "4", "8,9", "9,4", "10,1", "sauerstoff"),
    ("Magnesuim", "mg/l", "1", "10", "10", "10", "!no_match"),
    ("Trübung (visuell)", "", "12", "klar", "klar", "klar", "!not_in_register"),
    ("Delta-pH", "", "4", "0,1", "0,2", "0,3", "!not_in_register"),
    ("Phosphat als P", "mg/l", "4", "< 0,01", "< 0,01", "0,01", "!different_quantity"),
]
B_ROWS, B_EXPECT = _table(_B)
B = Table(
    file="wasserverband-sued-jahreswerte-2026.csv",
    title=(),
    header=("Kenngröße", "Einheit", "Anzahl", "Minimum", "Mittelwert", "Maximum"),
    rows=B_ROWS,
    expect=B_EXPECT,
    zone_id=12,
    document_id="wk-2026",
    sampled_at=dt.date(2026, 6, 30),
    delimiter=",",
)

# ---------------------------------------------------------------------------- C: points
# A lake waterworks' trace-substance sheet in Excel: one column per sampling point and a
# reporting-limit column; reporting limits and units in the names, sum signs.
_C = [
    ("Terbuthylazin", "µg/l", "0,01", "< 0,01", "< 0,01", "terbuthylazin"),
    ("Desethylterbuthylazin", "µg/l", "0,01", "0,02", "0,02", "desethylterbuthylazin"),
    ("Simazin", "µg/l", "0,01", "< 0,01", "< 0,01", "simazin"),
    ("Diuron", "µg/l", "0,01", "< 0,01", "< 0,01", "diuron"),
    ("Isoproturon", "µg/l", "0,01", "< 0,01", "< 0,01", "isoproturon"),
    ("Chlortoluron", "µg/l", "0,01", "< 0,01", "< 0,01", "chlortoluron"),
    ("Metazachlor", "µg/l", "0,01", "< 0,01", "< 0,01", "metazachlor"),
    ("Metazachlor-ESA", "µg/l", "0,02", "0,08", "0,07", "metazachlor_esa"),
    ("Metazachlor OA", "µg/l", "0,02", "0,03", "0,03", "metazachlor_oa"),
    ("S-Metolachlor", "µg/l", "0,01", "< 0,01", "< 0,01", "metolachlor"),
    ("Metolachlor ESA", "µg/l", "0,02", "0,05", "0,05", "metolachlor_esa"),
    ("Chloridazon", "µg/l", "0,01", "< 0,01", "< 0,01", "chloridazon"),
    ("Methyl-desphenyl-Chloridazon", "µg/l", "0,02", "0,04", "0,04", "methyldesphenylchloridazon"),
    ("2,6-Dichlorbenzamid (BAM)", "µg/l", "0,01", "0,02", "0,02", "dichlorbenzamid_2_6"),
    ("N,N-Dimethylsulfamid (DMS)", "µg/l", "0,02", "0,11", "0,10", "dimethylsulfamid"),
    ("Mecoprop (MCPP)", "µg/l", "0,01", "< 0,01", "< 0,01", "mecoprop"),
    ("MCPA", "µg/l", "0,01", "< 0,01", "< 0,01", "mcpa"),
    ("2,4-D", "µg/l", "0,01", "< 0,01", "< 0,01", "dichlorphenoxyessigsaeure_2_4"),
    ("Dichlorprop", "µg/l", "0,01", "< 0,01", "< 0,01", "dichlorprop"),
    ("Flufenacet", "µg/l", "0,01", "< 0,01", "< 0,01", "flufenacet"),
    (
        "Chlorthalonil-Sulfonsäure (R417888)",
        "µg/l",
        "0,02",
        "0,12",
        "0,11",
        "chlorthalonil_r417888",
    ),
    ("TFA", "µg/l", "0,05", "0,9", "0,8", "trifluoracetat"),
    ("PFBA", "ng/l", "1", "3", "3", "pfba"),
    ("PFBS", "ng/l", "1", "< 1", "< 1", "pfbs"),
    ("PFHxA", "ng/l", "1", "< 1", "< 1", "pfhxa"),
    ("PFHxS", "ng/l", "1", "< 1", "< 1", "pfhxs"),
    ("PFNA", "ng/l", "1", "< 1", "< 1", "pfna"),
    ("PFDA", "ng/l", "1", "< 1", "< 1", "pfda"),
    ("Perfluoroctansäure (PFOA)", "ng/l", "1", "2", "2", "pfoa"),
    ("Perfluoroctansulfonsäure (PFOS)", "ng/l", "1", "1", "< 1", "pfos"),
    ("Summe PFAS 20", "Σ µg/l", "", "0,006", "0,005", "pfas_summe_20"),
    ("Summe PFAS 4", "ng/l (Σ)", "", "3", "2", "pfas_summe_4"),
    ("Summe PFAS", "µg/l", "", "0,006", "0,005", "!not_in_register"),
    ("Trichlorethen", "µg/l", "0,1", "< 0,1", "< 0,1", "trichlorethen"),
    ("Tetrachlorethen", "µg/l", "0,1", "< 0,1", "< 0,1", "tetrachlorethen"),
    ("Tetrachlormethan", "µg/l", "0,1", "< 0,1", "< 0,1", "tetrachlormethan"),
    ("Dichlormethan", "µg/l", "0,5", "< 0,5", "< 0,5", "dichlormethan"),
    ("1,1,1-Trichlorethan", "µg/l", "0,1", "< 0,1", "< 0,1", "trichlorethan_1_1_1"),
    ("cis-1,2-Dichlorethen", "µg/l", "0,1", "< 0,1", "< 0,1", "cis_dichlorethen_1_2"),
    ("Chloroform", "µg/l", "0,1", "1,8", "2,2", "trichlormethan"),
    ("Bromdichlormethan", "µg/l", "0,1", "0,6", "0,7", "bromdichlormethan"),
    ("Dibromchlormethan", "µg/l", "0,1", "0,2", "0,3", "dibromchlormethan"),
    ("Bromoform", "µg/l", "0,1", "< 0,1", "< 0,1", "tribrommethan"),
    ("Summe THM", "µg/l", "", "2,6", "3,2", "thm"),
    ("Benzo(b)fluoranthen", "µg/l", "0,002", "< 0,002", "< 0,002", "benzo_b_fluoranthen"),
    ("Benzo(k)fluoranthen", "µg/l", "0,002", "< 0,002", "< 0,002", "benzo_k_fluoranthen"),
    ("Benzo(ghi)perylen", "µg/l", "0,002", "< 0,002", "< 0,002", "benzo_ghi_perylen"),
    ("Indeno(1,2,3-cd)pyren", "µg/l", "0,002", "< 0,002", "< 0,002", "indeno_1_2_3_cd_pyren"),
    ("Naphthalin", "µg/l", "0,01", "< 0,01", "< 0,01", "naphthalin"),
    ("Toluol", "µg/l", "0,1", "< 0,1", "< 0,1", "toluol"),
    ("Ethylbenzol", "µg/l", "0,1", "< 0,1", "< 0,1", "ethylbenzol"),
    ("Xylole", "µg/l", "0,2", "< 0,2", "< 0,2", "!not_in_register"),
    ("MTBE", "µg/l", "0,1", "< 0,1", "< 0,1", "mtbe"),
    ("Bisphenol A", "µg/l", "0,01", "< 0,01", "< 0,01", "bisphenol_a"),
    ("EDTA", "µg/l", "1", "2", "2", "edta"),
    ("Quecksilber [Bestimmungsgrenze 0,0001]", "mg/l", "", "< 0,0001", "< 0,0001", "quecksilber"),
    ("Arsen (BG: 0,001 mg/l)", "mg/l", "", "0,002", "0,002", "arsen"),
    ("Gesamt-Alpha-Aktivität", "Bq/l", "0,02", "< 0,02", "< 0,02", "gesamt_alpha_aktivitaet"),
    ("Radium-226", "mBq/l", "5", "< 5", "< 5", "radium_226"),
    ("Uran-238", "mBq/l", "2", "9", "8", "uran_238"),
    ("Rest-Beta-Aktivität", "Bq/l", "0,05", "< 0,05", "< 0,05", "!not_in_register"),
]
C_ROWS, C_EXPECT = _table(_C)
C = Table(
    file="seeland-spurenstoffe-2026.xlsx",
    title=("Spurenstoffe im Trinkwasser 2026",),
    header=("Parameter", "Einheit", "BG", "Wasserwerk See, Reinwasser", "Hochbehälter Nord"),
    rows=C_ROWS,
    expect=C_EXPECT,
    zone_id=21,
    document_id="zs-2026",
    sampled_at=dt.date(2026, 5, 1),
)

# ---------------------------------------------------------------------------- D: dates
# A small municipal utility: one column per sampling date, Windows-1252 CSV, field and
# network parameters, degree signs lost or spelled out.
_D = [
    ("Temperatur bei Probenahme", "Grad C", "9,1", "12,4", "temperatur"),
    ("pH", "pH-Einheiten", "7,70", "7,66", "ph_wert"),
    ("Leitfähigkeit", "mS/m", "61,2", "60,8", "elektrische_leitfaehigkeit"),
    ("Trübung (quantitativ)", "TE/F", "0,05", "0,07", "truebung"),
    ("Härte gesamt", "mmol/L", "2,9", "2,8", "gesamthaerte"),
    ("Carbonathärte", "?dKH", "12,1", "12,0", "karbonathaerte"),
    ("Freies Chlor", "mg/l", "0,05", "0,04", "freies_chlor"),
    ("Chlor gesamt", "mg/l", "0,07", "0,06", "gesamtchlor"),
    ("Chlordioxid", "mg/l", "< 0,02", "< 0,02", "chlordioxid"),
    ("Redoxspannung", "mV", "410", "395", "redox_potential"),
    ("Koloniezahl (22 °C)", "KBE/ml", "0", "2", "koloniezahl_22"),
    ("Koloniezahl (36 °C)", "KBE/ml", "0", "0", "koloniezahl_36"),
    ("Coliforme", "MPN/100ml", "0", "0", "coliforme_bakterien"),
    ("E. coli", "MPN/100ml", "0", "0", "e_coli"),
    ("Enterococcen", "KBE in 100 ml", "0", "0", "enterokokken"),
    ("Legionellen", "KBE/100 ml", "< 1", "< 1", "legionella"),
    ("Nitrat mg/l", "", "22", "23", "nitrat"),
    ("Nitrat (Mittelwert)", "mg/l", "22,5", "22,5", "nitrat:mean"),
    ("Kohlenstoffdioxid (frei)", "mg/l", "12", "11", "freie_kohlensaeure"),
    ("Sauerstoffsättigung", "%", "96", "94", "!not_in_register"),
    ("Eisen (II)", "mg/l", "< 0,01", "< 0,01", "!not_in_register"),
    ("Lufttemperatur", "°C", "4", "15", "!not_in_register"),
    ("Leitfähigkeit bei 20 °C", "µS/cm", "550", "548", "!not_in_register"),
    ("Ammonium-Stickstoff", "mg/l", "< 0,01", "< 0,01", "!not_in_register"),
    ("Nikel", "µg/l", "< 2", "< 2", "!no_match"),
    ("Calcium Median", "mg/l", "95", "94", "!unsupported_statistic"),
    ("Sulfat (NO3-)", "mg/l", "80", "81", "!ambiguous"),
    ("Chlorid", "µS/cm", "30", "31", "!unit_error"),
    ("Magnesium", "", "11", "11", "!unit_error"),
]
D_ROWS, D_EXPECT = _table(_D)
D = Table(
    file="gemeindewerke-west-netz-2026.csv",
    title=("Gemeindewerke West - Untersuchungen im Versorgungsnetz",),
    header=("Untersuchungsparameter", "Maßeinheit", "10.02.2026", "12.05.2026"),
    rows=D_ROWS,
    expect=D_EXPECT,
    zone_id=11,
    document_id="wk-2026",
    sampled_at=None,
    sample_point="Netz, Rathaus",
    encoding="cp1252",
)

TABLES = (A, B, C, D)


def expectations() -> dict[tuple[str, str], str]:
    """(name, unit) -> the expectation, over all tables (a pair may appear in several)."""
    found: dict[tuple[str, str], str] = {}
    for table in TABLES:
        for row, expect in zip(table.rows, table.expect, strict=True):
            assert found.setdefault((row[0], row[1]), expect) == expect, row
    return found


def write(table: Table, directory: Path) -> Path:
    """Write the table as its supplier would publish it; return the path."""
    path = directory / table.file
    if path.suffix == ".xlsx":
        return _write_xlsx(table, path)
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=table.delimiter, lineterminator="\r\n")
    for line in table.title:
        writer.writerow([line] if line else [])
    writer.writerow(table.header)
    writer.writerows(table.rows)
    path.write_bytes(buffer.getvalue().encode(table.encoding))
    return path


def _write_xlsx(table: Table, path: Path) -> Path:
    import xlsxwriter

    book = xlsxwriter.Workbook(str(path))
    sheet = book.add_worksheet("Spurenstoffe")
    for r, line in enumerate(table.title):
        sheet.write_string(r, 0, line)
    start = len(table.title) + 1  # a blank row between title and header
    sheet.write_row(start, 0, table.header)
    for r, row in enumerate(table.rows, start + 1):
        for c, cell in enumerate(row):
            sheet.write_string(r, c, cell)  # as typed: text cells keep their text exactly
    book.close()
    return path
