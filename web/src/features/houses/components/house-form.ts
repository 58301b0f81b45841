import {
  DEFAULT_HOUSE_COUNTRY,
  DEFAULT_HOUSE_CURRENCY,
  DEFAULT_HOUSE_TIMEZONE,
  houseTimezoneLabels,
  houseTimezones,
  type HouseTimezone,
} from '@contracts/identity/accounts/accounts.schema';
import type { House, HouseBody, HouseUpdate } from '../api/houses';

/** The house dialog's fields, named as the service names them so its 400s land on the field. */
export interface HouseForm {
  name: string;
  businessName: string;
  active: boolean;
  address: string;
  city: string;
  state: string;
  zip: string;
  country: string;
  phone: string;
  email: string;
  website: string;
  timezone: string;
  currency: string;
}

export const blankHouseForm = (): HouseForm => ({
  name: '',
  businessName: '',
  active: true,
  address: '',
  city: '',
  state: '',
  zip: '',
  country: DEFAULT_HOUSE_COUNTRY,
  phone: '',
  email: '',
  website: '',
  timezone: DEFAULT_HOUSE_TIMEZONE,
  currency: DEFAULT_HOUSE_CURRENCY,
});

export const formFromHouse = (house: House): HouseForm => ({
  name: house.name,
  businessName: house.businessName,
  active: house.status === 'active',
  address: house.address,
  city: house.city,
  state: house.state,
  zip: house.zip,
  country: house.country,
  phone: house.phone,
  email: house.email,
  website: house.website ?? '',
  timezone: house.timezone,
  currency: house.currency,
});

/** The spec's rule for the Create button: a name, a business name and a city. */
export const hasRequired = (form: HouseForm) =>
  [form.name, form.businessName, form.city].every((value) => value.trim() !== '');

/** A web address typed without its scheme ("harborview.com") is meant as https. */
function websiteOf(value: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  return /^[a-z][a-z\d+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
}

/** What the form creates: every field, the service checking each. */
export function bodyOf(form: HouseForm): HouseBody {
  return {
    name: form.name,
    businessName: form.businessName,
    status: form.active ? 'active' : 'inactive',
    address: form.address,
    city: form.city,
    state: form.state,
    zip: form.zip,
    country: form.country,
    phone: form.phone,
    email: form.email,
    website: websiteOf(form.website),
    timezone: form.timezone as HouseTimezone,
    currency: form.currency as HouseBody['currency'],
  };
}

/**
 * Only what the form changed of the house, so a field nobody touched (say a time zone from
 * before the list was narrowed) is not sent back to be refused.
 */
export function changesOf(house: House, form: HouseForm): HouseUpdate {
  const body = bodyOf(form);
  const before = bodyOf(formFromHouse(house));
  return Object.fromEntries(
    (Object.keys(body) as (keyof HouseBody)[])
      .filter((key) => body[key] !== before[key])
      .map((key) => [key, body[key]]),
  ) as HouseUpdate;
}

/** The choices of the time zone list: "Eastern (America/New_York)". */
export const timezoneChoices = houseTimezones.map((zone) => ({
  value: zone,
  label: `${houseTimezoneLabels[zone]} (${zone})`,
}));

/** A zone's city, as a house card names its time: "America/New_York" -> "New York". */
export const timezoneCity = (zone: string) => (zone.split('/').pop() ?? zone).replace(/_/g, ' ');

/** City, state and ZIP as an address line writes them: "Boston, MA 02110". */
export function placeOf(house: Pick<House, 'city' | 'state' | 'zip'>): string {
  const region = [house.state, house.zip].filter(Boolean).join(' ');
  return [house.city, region].filter(Boolean).join(', ');
}
