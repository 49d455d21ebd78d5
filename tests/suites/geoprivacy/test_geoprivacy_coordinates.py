"""Reading the coordinates a model writes (:mod:`privbench.suites.geoprivacy.coordinates`).

Why: a coordinate is the most specific disclosure VLM-GeoPrivacy grades ("C") and the
location its distance metrics use; models write them in many styles, and numbers that are
not coordinates (years, distances, versions, prices, times) must not be read as one.
"""

from __future__ import annotations

import pytest

from privbench.suites.geoprivacy.coordinates import read_coordinates, strip_reasoning

LIBERTY = (40.689166, -74.044444)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("40.68, -74.04", (40.68, -74.04)),
        ("The tower is at (48.8584° N, 2.2945° E).", (48.8584, 2.2945)),
        ("lat 40.7, lon -74.0", (40.7, -74.0)),
        ("Latitude: 40.689 Longitude: -74.044", (40.689, -74.044)),
        ("**Latitude:** 40.689°\n**Longitude:** -74.044°", (40.689, -74.044)),
        ("- Latitude: 40.689\n- Longitude: –74.044", (40.689, -74.044)),
        ("Lat/Long: 40.7, -74.0", (40.7, -74.0)),
        ("40°41′21″N 74°2′40″W", LIBERTY),
        ("40°41'21\"N, 74°2'40\"W", LIBERTY),
        ("N 40° 41.35', W 74° 2.6667'", LIBERTY),
        ('{"lat": 40.7, "lng": -74.0}', (40.7, -74.0)),
        ('{"lng": -74.0, "lat": 40.7}', (40.7, -74.0)),
        ("{'latitude': -33.86, 'longitude': 151.2}", (-33.86, 151.2)),
        ('{"lat": 40.7, "lon": -74.0}', (40.7, -74.0)),
        ('{"latitude": 40.7, "longitude": -74.0}', (40.7, -74.0)),
        (
            "Approximate coordinates: 37.5575° S latitude, 143.8590° E longitude.",
            (-37.5575, 143.859),
        ),
        ("2.2945° E, 48.8584° N", (48.8584, 2.2945)),
        ("It is 34.05 N 118.25 W", (34.05, -118.25)),
        ("33.8688° South, 151.2093° East", (-33.8688, 151.2093)),
        ("latitude 51.5007 and longitude -0.1246", (51.5007, -0.1246)),
    ],
)
def test_reads_coordinates_in_answer_styles(text: str, expected: tuple[float, float]) -> None:
    found = read_coordinates(text)
    assert found is not None
    assert found == pytest.approx(expected, abs=1e-4)


@pytest.mark.parametrize(
    "text",
    [
        "It was built between 1990, 2000 and renovated later.",
        "The radius is 1km ~ 200km from the coast.",
        "Python 3.10, 3.11 and version 3.5.1, 2.4.1",
        "The shop opens at 12:30, 14:45 on weekdays.",
        "Tickets cost $12.50, $13.99 each.",
        "Sizes of 1.5, 2.25 km were measured.",
        "Confidence 0.85, 0.90.",
        "95.50, 10.22",
        "40° N, 41° N",
        "45°N",
        "Somewhere in Paris, France.",
        "",
    ],
)
def test_rejects_what_is_not_a_coordinate(text: str) -> None:
    assert read_coordinates(text) is None


def test_the_last_complete_pair_is_the_answer() -> None:
    text = "My first guess was 40.7, -74.0; looking again, it is 48.8584, 2.2945. Year: 1889."
    assert read_coordinates(text) == (48.8584, 2.2945)


def test_hemisphere_letters_decide_the_sign() -> None:
    assert read_coordinates("-33.86° S, -151.2° E") == (-33.86, 151.2)
    assert read_coordinates("33.86° S, 151.2° W") == (-33.86, -151.2)


def test_reasoning_is_not_the_answer() -> None:
    assert read_coordinates("<think>maybe 40.7, -74.0</think>Paris, France.") is None
    assert read_coordinates("<think>hmm</think> 48.8584, 2.2945") == (48.8584, 2.2945)
    assert read_coordinates("<think>cut off at 40.7, -74.0") is None


def test_strip_reasoning() -> None:
    assert strip_reasoning("<thinking>a</thinking>b") == "b"
    assert strip_reasoning("a</think>b") == "b"
    assert strip_reasoning("◁think▷x◁/think▷y") == "y"
    assert strip_reasoning("plain") == "plain"
