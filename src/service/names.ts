/**
 * Fictional names for teams, organisations, players and casters. Any resemblance to a real team or
 * person is accidental: names are glued from neutral word lists and syllables.
 */
import type { Rng } from './random.ts';

const ADJECTIVES = [
  'Crimson',
  'Silent',
  'Iron',
  'Golden',
  'Frozen',
  'Wild',
  'Lunar',
  'Solar',
  'Rapid',
  'Hidden',
  'Brave',
  'Electric',
  'Northern',
  'Velvet',
  'Savage',
  'Cobalt',
  'Scarlet',
  'Emerald',
  'Storm',
  'Shadow',
  'Azure',
  'Amber',
  'Onyx',
  'Neon',
  'Jade',
  'Copper',
  'Ivory',
  'Rogue',
  'Prime',
  'Echo',
  'Nova',
  'Atomic',
  'Arctic',
  'Blazing',
  'Crystal',
  'Distant',
  'Feral',
  'Gilded',
  'Hollow',
  'Indigo',
  'Mighty',
  'Obsidian',
  'Polar',
  'Quiet',
  'Rustic',
  'Sable',
  'Tidal',
  'Wandering',
];
const NOUNS = [
  'Foxes',
  'Owls',
  'Wolves',
  'Ravens',
  'Sharks',
  'Falcons',
  'Lynx',
  'Comets',
  'Titans',
  'Vipers',
  'Hornets',
  'Bison',
  'Herons',
  'Otters',
  'Rhinos',
  'Cobras',
  'Mantas',
  'Pumas',
  'Badgers',
  'Jackals',
  'Stags',
  'Krakens',
  'Griffins',
  'Golems',
  'Pilots',
  'Knights',
  'Monks',
  'Rangers',
  'Sparks',
  'Tides',
  'Engines',
  'Anchors',
  'Beacons',
  'Condors',
  'Coyotes',
  'Ferrets',
  'Gazelles',
  'Harriers',
  'Ibexes',
  'Jaguars',
  'Kestrels',
  'Lanterns',
  'Marlins',
  'Narwhals',
  'Orcas',
  'Pelicans',
  'Quokkas',
  'Walruses',
];
const ORG_WORDS = [
  'Northwind',
  'Bluepeak',
  'Redline',
  'Ironclad',
  'Starfall',
  'Quickstep',
  'Highmark',
  'Deepwater',
  'Brightside',
  'Longshot',
  'Stonegate',
  'Clearview',
  'Firebrand',
  'Silverlake',
  'Greenhill',
  'Blackrock',
  'Whitecap',
  'Sunridge',
  'Moonvale',
  'Eastbrook',
  'Westfield',
  'Kingsway',
  'Lakeshore',
  'Riverbend',
  'Cloudbase',
  'Tallpine',
  'Coldharbor',
  'Oakmoor',
  'Farpoint',
  'Grayhaven',
  'Pinecrest',
  'Rosewood',
  'Stormport',
  'Ashford',
  'Duskwood',
  'Goldcrest',
];
const ORG_SUFFIXES = ['Esports', 'Gaming', 'Club', 'Collective', 'Syndicate', 'Academy'];
const SYLLABLES = [
  'ka',
  'ri',
  'zo',
  'mek',
  'lu',
  'tan',
  'vi',
  'nor',
  'sha',
  'dex',
  'po',
  'ly',
  'qu',
  'xen',
  'ar',
  'bo',
  'ce',
  'dun',
  'fi',
  'gal',
  'ho',
  'ix',
  'jo',
  'ven',
  'ru',
  'sol',
  'tek',
  'um',
  'wy',
  'zer',
];
const FIRST_NAMES = [
  'Alex',
  'Mira',
  'Jonas',
  'Lena',
  'Tomas',
  'Ines',
  'Ravi',
  'Yuki',
  'Omar',
  'Sofia',
  'Pavel',
  'Hana',
  'Diego',
  'Noor',
  'Erik',
  'Leila',
  'Kofi',
  'Anya',
  'Mateo',
  'Sari',
  'Lukas',
  'Ida',
  'Chen',
  'Nadia',
  'Felix',
  'Zara',
  'Milan',
  'Ayla',
];
const LAST_NAMES = [
  'Varga',
  'Lindqvist',
  'Okafor',
  'Moreau',
  'Kowal',
  'Tanaka',
  'Haddad',
  'Silva',
  'Novak',
  'Berg',
  'Petrov',
  'Rossi',
  'Mensah',
  'Kaur',
  'Jansen',
  'Duarte',
  'Ishikawa',
  'Farouk',
  'Holm',
  'Castell',
  'Brandt',
  'Zielinski',
  'Aydin',
  'Quist',
];

/** A two-word team name such as "Cobalt Herons" (48 x 48 of them; the catalog keeps them unique). */
export function teamName(rng: Rng): string {
  return `${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)}`;
}

export function orgName(rng: Rng, index: number): string {
  return `${ORG_WORDS[index % ORG_WORDS.length]}${index >= ORG_WORDS.length ? ` ${Math.floor(index / ORG_WORDS.length) + 1}` : ''} ${rng.pick(ORG_SUFFIXES)}`;
}

/** A handle such as "Kaxen" built from two or three syllables. */
export function handle(rng: Rng): string {
  const parts = rng.int(2, 3);
  let text = '';
  for (let i = 0; i < parts; i++) text += rng.pick(SYLLABLES);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function firstName(rng: Rng): string {
  return rng.pick(FIRST_NAMES);
}

export function lastName(rng: Rng): string {
  return rng.pick(LAST_NAMES);
}

/** Upper-case initials or the first letters, 2 to 4 characters. */
export function abbreviate(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  if (words.length >= 2)
    return words
      .map((w) => w[0])
      .join('')
      .toUpperCase()
      .slice(0, 4);
  return name.slice(0, 3).toUpperCase();
}
