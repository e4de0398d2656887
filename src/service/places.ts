/**
 * Where tournaments are hosted: the cities of each country of the catalog (catalog-defs.ts,
 * COUNTRY_DEFS by abbreviation), the country every city lies in, and each region's UTC offset
 * (its hosts' clocks, standard time in November), from which an event's broadcast day is set.
 */

/** Cities by country abbreviation; the first is the country's usual host. Single words (titles split on spaces). */
export const CITIES: Record<string, string[]> = {
  DE: ['Cologne', 'Berlin', 'Hamburg', 'Leipzig'],
  SE: ['Stockholm', 'Jönköping', 'Malmö'],
  DK: ['Copenhagen', 'Aarhus', 'Odense'],
  FR: ['Paris', 'Lyon', 'Marseille'],
  PL: ['Katowice', 'Kraków', 'Warsaw'],
  BR: ['Curitiba', 'Recife', 'Fortaleza', 'Brasília'],
  US: ['Austin', 'Atlanta', 'Chicago', 'Dallas'],
  CA: ['Toronto', 'Montreal', 'Vancouver'],
  KR: ['Seoul', 'Busan', 'Incheon'],
  CN: ['Shanghai', 'Chengdu', 'Shenzhen'],
  JP: ['Osaka', 'Tokyo', 'Fukuoka'],
  UA: ['Kyiv', 'Lviv', 'Odesa'],
  ES: ['Valencia', 'Madrid', 'Bilbao'],
  PE: ['Lima', 'Arequipa', 'Cusco'],
  PH: ['Manila', 'Cebu', 'Davao'],
  AU: ['Sydney', 'Melbourne', 'Brisbane'],
};

/** The country (abbreviation) a city lies in, for every city a title may name. */
export const CITY_COUNTRY: Record<string, string> = {
  ...Object.fromEntries(
    Object.entries(CITIES).flatMap(([country, cities]) => cities.map((c) => [c, country])),
  ),
};

/** UTC offset in hours of each region (catalog-defs.ts REGION_DEFS, by abbreviation). */
export const REGION_UTC_OFFSET: Record<string, number> = {
  WEU: 1,
  NEU: 1,
  EEU: 2,
  NA: -5,
  SA: -3,
  KR: 9,
  CN: 8,
  JP: 9,
  SEA: 8,
  OCE: 10,
  IB: 1,
  CEU: 1,
};

/**
 * The three zones whose prime times follow each other round the clock, by region abbreviation,
 * each with the local hours its broadcast days start at (the earliest and the latest): the
 * Americas' evenings run into Asia's mornings, Asia's afternoons into Europe's.
 */
export const ZONES: { regions: string[]; localStartH: [number, number] }[] = [
  { regions: ['NA', 'SA'], localStartH: [13, 15] },
  { regions: ['WEU', 'NEU', 'EEU', 'IB', 'CEU'], localStartH: [11, 14] },
  { regions: ['KR', 'CN', 'JP', 'SEA', 'OCE'], localStartH: [10, 12] },
];

/** The zone of a region (by abbreviation). */
export function zoneOf(region: string): (typeof ZONES)[number] {
  return ZONES.find((z) => z.regions.includes(region)) ?? ZONES[1]!;
}
