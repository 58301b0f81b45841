import { describe, expect, it } from 'vitest';
import {
  blockingKeys,
  compare,
  findDuplicates,
  jaroWinkler,
  MIN_CONFIDENCE,
  normaliseEmail,
  phoneDigits,
  soundex,
  untaggedEmail,
  type MatchRecord,
} from './duplicate-matcher.js';

const person = (id: string, overrides: Partial<MatchRecord> = {}): MatchRecord => ({
  id,
  firstName: 'Eleanor',
  lastName: 'Whitfield',
  email: 'eleanor.whitfield@example.com',
  phone: '+1 (401) 555-0142',
  address: {
    street: '12 Bellevue Avenue',
    city: 'Newport',
    state: 'RI',
    zip: '02840',
    country: 'USA',
  },
  status: 'Active',
  ...overrides,
});

describe('normaliseEmail', () => {
  it('lower-cases and trims', () => {
    expect(normaliseEmail('  Eleanor@Example.COM ')).toBe('eleanor@example.com');
  });

  it('drops dots and plus-tags at Gmail, and treats googlemail.com as gmail.com', () => {
    expect(normaliseEmail('John.Smith+auctions@gmail.com')).toBe('johnsmith@gmail.com');
    expect(normaliseEmail('j.o.h.n.smith@GoogleMail.com')).toBe('johnsmith@gmail.com');
  });

  it('drops a plus-tag at providers that deliver tagged mail to the same mailbox', () => {
    expect(normaliseEmail('Ada+auctions@outlook.com')).toBe('ada@outlook.com');
    expect(normaliseEmail('ada+x@icloud.com')).toBe('ada@icloud.com');
    expect(normaliseEmail('ada+x@proton.me')).toBe('ada@proton.me');
    expect(normaliseEmail('ada.lovelace+x@fastmail.com')).toBe('ada.lovelace@fastmail.com');
  });

  it('keeps dots and plus-tags elsewhere, where they may be another mailbox', () => {
    expect(normaliseEmail('ada+x@example.com')).toBe('ada+x@example.com');
    expect(normaliseEmail('ada+x@example.com')).not.toBe(normaliseEmail('ada@example.com'));
    expect(normaliseEmail('john.smith@example.com')).not.toBe(
      normaliseEmail('johnsmith@example.com'),
    );
  });
});

describe('untaggedEmail', () => {
  it('drops a plus-tag for every provider, to bring the two addresses together', () => {
    expect(untaggedEmail('Ada+x@Example.com')).toBe('ada@example.com');
    expect(untaggedEmail('j.o.h.n+x@googlemail.com')).toBe('john@gmail.com');
    expect(untaggedEmail(null)).toBeNull();
  });

  it('answers null for nothing or no domain', () => {
    expect(normaliseEmail(null)).toBeNull();
    expect(normaliseEmail(undefined)).toBeNull();
    expect(normaliseEmail('')).toBeNull();
    expect(normaliseEmail('not-an-address')).toBeNull();
  });
});

describe('phoneDigits', () => {
  it('keeps the last ten digits, so formats and country codes agree', () => {
    expect(phoneDigits('+1 (617) 555-0142')).toBe('6175550142');
    expect(phoneDigits('617.555.0142')).toBe('6175550142');
    expect(phoneDigits('+1-617-555-0142')).toBe(phoneDigits('617 555 0142'));
  });

  it('keeps a seven-digit local number and ignores anything shorter', () => {
    expect(phoneDigits('555-1234')).toBe('5551234');
    expect(phoneDigits('555-12')).toBeNull();
    expect(phoneDigits(null)).toBeNull();
    expect(phoneDigits('')).toBeNull();
  });
});

describe('soundex (American, H and W transparent)', () => {
  it.each([
    ['Robert', 'R163'],
    ['Rupert', 'R163'],
    ['Rubin', 'R150'],
    ['Ashcraft', 'A261'],
    ['Ashcroft', 'A261'],
    ['Tymczak', 'T522'],
    ['Pfister', 'P236'],
    ['Honeyman', 'H555'],
    ['Smith', 'S530'],
    ['Smyth', 'S530'],
    ['Lee', 'L000'],
    ["O'Brien", 'O165'],
  ])('%s is %s', (name, code) => {
    expect(soundex(name)).toBe(code);
  });

  it('is case-insensitive and empty for a name without letters', () => {
    expect(soundex('whitfield')).toBe(soundex('WHITFIELD'));
    expect(soundex('')).toBe('');
    expect(soundex('123')).toBe('');
  });
});

describe('jaroWinkler', () => {
  it.each([
    ['MARTHA', 'MARHTA', 0.961],
    ['DWAYNE', 'DUANE', 0.84],
    ['DIXON', 'DICKSONX', 0.813],
    ['Olivia', 'Olivya', 0.933],
  ])('%s / %s ≈ %f', (left, right, expected) => {
    expect(jaroWinkler(left, right)).toBeCloseTo(expected, 3);
  });

  it('is 1 for the same string regardless of case and spaces, 0 for nothing in common', () => {
    expect(jaroWinkler('Brennan', ' brennan ')).toBe(1);
    expect(jaroWinkler('abc', 'xyz')).toBe(0);
    expect(jaroWinkler('', 'abc')).toBe(0);
  });

  it('is symmetric', () => {
    expect(jaroWinkler('Castellano', 'Castellanos')).toBeCloseTo(
      jaroWinkler('Castellanos', 'Castellano'),
      10,
    );
  });
});

describe('blockingKeys', () => {
  it('keys on e-mail, phone and a sound-alike name with initial and postcode', () => {
    expect(blockingKeys(person('a'))).toEqual([
      'e:eleanor.whitfield@example.com',
      'p:4015550142',
      'n:W314:E:02840',
    ]);
  });

  it('leaves out what is missing', () => {
    expect(
      blockingKeys(
        person('a', {
          email: null,
          phone: null,
          address: { street: '', city: '', state: '', zip: '', country: '' },
        }),
      ),
    ).toEqual([]);
  });
});

describe('compare', () => {
  it('adds the evidence and caps it at 100', () => {
    const result = compare(person('a'), person('b'));
    expect(result.confidence).toBe(100);
    expect(result.reasons).toEqual([
      'Same email address',
      'Same phone number',
      'Same name',
      'Same address',
    ]);
    expect(result.conflicts).toEqual([]);
  });

  it('scores same e-mail 50, same phone 35, same name 25, same address 25', () => {
    const nothing = {
      email: null,
      phone: null,
      address: { street: '', city: '', state: '', zip: '', country: '' },
    };
    // A different person of the same first name: no name points, and no household penalty.
    const far = { lastName: 'Quorum' };
    expect(compare(person('a', { ...nothing, ...far }), person('b', nothing)).confidence).toBe(0);
    expect(
      compare(
        person('a', { ...nothing, ...far, email: 'x@example.com' }),
        person('b', { ...nothing, email: 'x@example.com' }),
      ).confidence,
    ).toBe(50);
    expect(
      compare(
        person('a', { ...nothing, ...far, phone: '4015550142' }),
        person('b', { ...nothing, phone: '401 555 0142' }),
      ).confidence,
    ).toBe(35);
    expect(compare(person('a', nothing), person('b', nothing))).toMatchObject({
      confidence: 25,
      reasons: ['Same name'],
    });
    const address = person('x').address;
    expect(
      compare(person('a', { ...nothing, ...far, address }), person('b', { ...nothing, address })),
    ).toMatchObject({ confidence: 25, reasons: ['Same address'] });
  });

  it('takes 15 for two different e-mails and 5 for two different phones', () => {
    const result = compare(
      person('a'),
      person('b', { email: 'other@example.com', phone: '212 555 0100' }),
    );
    // name 25 + address 25 - 15 - 5
    expect(result.confidence).toBe(30);
    expect(result.conflicts.map((conflict) => conflict.field)).toEqual(['email', 'phone']);
  });

  it('counts a close name 10, as a sound-alike surname alone, against 25 for the same name', () => {
    const similar = compare(
      person('a', { email: null }),
      person('b', { firstName: 'Elenor', email: null }),
    );
    // Same phone 35, similar name 10, same address 25.
    expect(similar.reasons).toEqual(['Same phone number', 'Similar name', 'Same address']);
    expect(similar.confidence).toBe(70);
    expect(compare(person('a', { email: null }), person('b', { email: null })).confidence).toBe(85);
    // A typo in the name with the same e-mail and address but a new phone is not certain.
    const typo = compare(person('a'), person('b', { firstName: 'Elenor', phone: '212 555 0100' }));
    expect(typo.confidence).toBe(80);
    const surname = compare(
      person('a', { email: null, phone: null }),
      person('b', {
        firstName: 'Edwin',
        lastName: 'Whitfeld',
        email: null,
        phone: null,
        address: { ...person('x').address, street: '9 Thames Street' },
      }),
    );
    // Similar last name 10 + same postcode 5
    expect(surname.confidence).toBe(15);
    expect(surname.reasons).toEqual(['Similar last name', 'Same postcode']);
  });

  it('counts the same address but for a +tag 35, as evidence rather than the same mailbox', () => {
    const nothing = {
      phone: null,
      address: { street: '', city: '', state: '', zip: '', country: '' },
    };
    const tagged = compare(
      person('a', { ...nothing, email: 'ada+auctions@example.com' }),
      person('b', { ...nothing, email: 'ada@example.com' }),
    );
    // +tag 35, same name 25: worth a review, not a merge; and no penalty for two addresses.
    expect(tagged.confidence).toBe(60);
    expect(tagged.reasons).toEqual(['Same email address apart from a +tag', 'Same name']);
    // Two people sharing one tagged address (a family's own domain) are still two people.
    const household = compare(
      person('a', { ...nothing, firstName: 'Ada', email: 'home+ada@example.com' }),
      person('b', { ...nothing, firstName: 'Bob', email: 'home+bob@example.com' }),
    );
    expect(household.confidence).toBe(20);
    // Where tags reach the same mailbox, it is the same address.
    expect(
      compare(
        person('a', { ...nothing, email: 'ada+auctions@outlook.com' }),
        person('b', { ...nothing, email: 'ada@outlook.com' }),
      ).reasons,
    ).toEqual(['Same email address', 'Same name']);
  });

  it('lists every field that differs, with both values', () => {
    const result = compare(person('a'), person('b', { status: 'Suspended', firstName: 'Ellie' }));
    expect(result.conflicts).toEqual([
      { field: 'firstName', value1: 'Eleanor', value2: 'Ellie' },
      { field: 'status', value1: 'Active', value2: 'Suspended' },
    ]);
  });
});

describe('findDuplicates', () => {
  // Ten distinct people, and five second registrations of them as a person would really make.
  const firsts = [
    'Eleanor',
    'James',
    'Priya',
    'Marcus',
    'Sofia',
    'Daniel',
    'Amara',
    'Henry',
    'Grace',
    'Mateo',
  ];
  const lasts = [
    'Whitfield',
    'Okafor',
    'Castellano',
    'Brennan',
    'Nakamura',
    'Lindqvist',
    'Abernathy',
    'Delacroix',
    'Haddad',
    'Sullivan',
  ];
  const people = firsts.map((first, index) =>
    person(`p${index}`, {
      firstName: first,
      lastName: lasts[index] as string,
      email: `${first}.${lasts[index]}@gmail.com`.toLowerCase(),
      phone: `+1 401 555 01${String(index).padStart(2, '0')}`,
      address: {
        street: `${10 + index} Harbor Road`,
        city: 'Newport',
        state: 'RI',
        zip: `0284${index}`,
        country: 'USA',
      },
    }),
  );
  const seconds: [string, MatchRecord][] = [
    // Gmail without the dot plus a tag, phone written differently.
    [
      'p0',
      { ...people[0]!, id: 'd0', email: 'eleanorwhitfield+art@gmail.com', phone: '401.555.0100' },
    ],
    // A typo in the first name, same e-mail, a new phone.
    ['p1', { ...people[1]!, id: 'd1', firstName: 'Jamess', phone: '212 555 0199' }],
    // Work e-mail, same phone and address.
    ['p2', { ...people[2]!, id: 'd2', email: 'priya@castellano-partners.example.com' }],
    // Moved house, same e-mail and phone.
    [
      'p3',
      {
        ...people[3]!,
        id: 'd3',
        address: { ...people[3]!.address, street: '1 Elm St', zip: '10001' },
      },
    ],
    // No e-mail or phone: only the name and address.
    ['p4', { ...people[4]!, id: 'd4', email: null, phone: null }],
  ];
  const records = [...people, ...seconds.map(([, record]) => record)];

  it('finds every second registration and nothing else', () => {
    const pairs = findDuplicates(records);
    const found = pairs.map((pair) => [pair.a, pair.b].sort().join('|')).sort();
    expect(found).toEqual(seconds.map(([of, record]) => [of, record.id].sort().join('|')).sort());
    expect(pairs.every((pair) => pair.confidence >= MIN_CONFIDENCE)).toBe(true);
  });

  it('puts the most certain first and reports each pair once', () => {
    const pairs = findDuplicates(records);
    const confidences = pairs.map((pair) => pair.confidence);
    expect(confidences).toEqual([...confidences].sort((x, y) => y - x));
    expect(new Set(pairs.map((pair) => `${pair.a}|${pair.b}`)).size).toBe(pairs.length);
    expect(pairs[0]?.confidence).toBe(100);
  });

  it('honours a higher minimum confidence', () => {
    const strict = findDuplicates(records, 100);
    expect(strict.length).toBeGreaterThan(0);
    expect(strict.length).toBeLessThan(seconds.length);
    expect(strict.every((pair) => pair.confidence === 100)).toBe(true);
  });

  it('skips a block of more than 50 records sharing a key, such as an office phone', () => {
    const office = (count: number) =>
      Array.from({ length: count }, (_, index) =>
        person(`o${index}`, {
          email: null,
          phone: '+1 401 555 9999',
          address: { street: '', city: '', state: '', zip: '', country: 'USA' },
        }),
      );
    // Same phone and name: 60 points each, so every pair of 50 is reported...
    expect(findDuplicates(office(50))).toHaveLength((50 * 49) / 2);
    // ...but 51 sharing one number says nothing, and none is compared.
    expect(findDuplicates(office(51))).toEqual([]);
  });
});
