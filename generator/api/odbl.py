"""What the ODbL asks of everyone who republishes the PLZ-to-zone mapping, quoted from it.

Open Data Commons Open Database License (ODbL) v1.0,
https://opendatacommons.org/licenses/odbl/1-0/. The quotes are the license's own words,
shortened only where marked with "…"; the German sentences say the same for the site and do
not replace the license. The attribution object of the API, the data package and the page
/lizenz/ all read them from here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Obligation:
    section: str
    title: str
    text: str
    """The license's words (English)."""
    summary_de: str
    """What it means for a user of the mapping, in German."""

    def as_json(self) -> dict[str, str]:
        # Keys sorted, as every JSON object of the API.
        return {"section": self.section, "text": self.text, "title": self.title}


OBLIGATIONS: tuple[Obligation, ...] = (
    Obligation(
        "4.4",
        "Share alike",
        "Any Derivative Database that You Publicly Use must be only under the terms of: "
        "i. This License; ii. A later version of this License similar in spirit to this "
        "License; or iii. A compatible license. … Extraction or Re-utilisation of the whole or "
        "a Substantial part of the Contents into a new database is a Derivative Database and "
        "must comply with Section 4.4.",
        "Wer die Zuordnung (oder einen wesentlichen Teil davon) in eine eigene Datenbank "
        "übernimmt und diese öffentlich nutzt, muss diese Datenbank ebenfalls unter der ODbL "
        "(oder einer späteren Version oder einer kompatiblen Lizenz) bereitstellen.",
    ),
    Obligation(
        "4.6",
        "Access to Derivative Databases",
        "If You Publicly Use a Derivative Database or a Produced Work from a Derivative "
        "Database, You must also offer to recipients of the Derivative Database or Produced "
        "Work a copy in a machine readable form of: a. The entire Derivative Database; or b. A "
        "file containing all of the alterations made to the Database or the method of making "
        "the alterations to the Database (such as an algorithm) … free of charge if "
        "distributed over the internet.",
        "Wer eine abgeleitete Datenbank oder ein daraus erzeugtes Werk öffentlich nutzt, muss "
        "den Empfängern die ganze abgeleitete Datenbank oder die Änderungen (oder das Verfahren "
        "der Änderung) maschinenlesbar anbieten, im Internet kostenlos.",
    ),
    Obligation(
        "4.7",
        "Technological measures and additional terms",
        "This License does not allow You to impose (except subject to Section 4.7 b.) any "
        "terms or any technological measures on the Database, a Derivative Database, or the "
        "whole or a Substantial part of the Contents that alter or restrict the terms of this "
        "License … b. Parallel distribution. You may impose terms or technological measures … "
        "only if You also make a copy of the Database or a Derivative Database available to "
        "the recipient of the Restricted Database: i. That is available without additional "
        "fee; ii. That is available in a medium that does not alter or restrict the terms of "
        "this License …",
        "Die Rechte aus der Lizenz dürfen nicht durch zusätzliche Bedingungen oder technische "
        "Maßnahmen eingeschränkt werden, es sei denn, eine uneingeschränkte Kopie wird "
        "zusätzlich kostenlos angeboten (parallele Verbreitung). So hält es auch dieser Dienst: "
        "Die PLZ-Abfrage der API braucht einen Schlüssel, die vollständige Zuordnung steht "
        "ohne Schlüssel und kostenlos zum Download bereit.",
    ),
)
