import type {
  InventoryCategory,
  InventoryCondition,
  InventoryItem,
  ItemUpdate,
  ManualStatus,
} from '@contracts/inventory/inventory.schema';
import { fieldLabel } from '../../../lib/field-errors';
import type { ItemBody } from '../api/inventory';
import { parseMoney, toMajorText, type MoneyCurrency } from '../../../lib/money';

/** The Add and Edit dialog's fields, as typed. */
export interface ItemForm {
  title: string;
  /** Blank on a new item: suggested from the title where the account auto-categorises. */
  category: InventoryCategory | '';
  subcategory: string;
  low: string;
  high: string;
  condition: InventoryCondition;
  status: ManualStatus;
  location: string;
  acquiredDate: string;
  description: string;
  consignorName: string;
  consignorContact: string;
}

export const blankItemForm = (): ItemForm => ({
  title: '',
  category: '',
  subcategory: '',
  low: '',
  high: '',
  condition: 'Good',
  status: 'Available',
  location: '',
  acquiredDate: '',
  description: '',
  consignorName: '',
  consignorContact: '',
});

export function formFromItem(item: InventoryItem): ItemForm {
  return {
    title: item.title,
    category: item.category,
    subcategory: item.subcategory,
    low: toMajorText(item.estimatedValue.low, item.currency),
    high: toMajorText(item.estimatedValue.high, item.currency),
    condition: item.condition,
    // Edits leave the status alone: it moves by its own route.
    status: 'Available',
    location: item.location,
    acquiredDate: item.acquiredDate,
    description: item.description,
    consignorName: item.consignor?.name ?? '',
    consignorContact: item.consignor?.contact ?? '',
  };
}

/** The service's name for each field the form shows a problem beside. */
export const fieldKeys: Record<string, keyof ItemForm> = {
  title: 'title',
  category: 'category',
  subcategory: 'subcategory',
  'estimatedValue.low': 'low',
  'estimatedValue.high': 'high',
  estimatedValue: 'high',
  condition: 'condition',
  status: 'status',
  location: 'location',
  acquiredDate: 'acquiredDate',
  description: 'description',
  consignor: 'consignorName',
  'consignor.name': 'consignorName',
  'consignor.contact': 'consignorContact',
};

/** Each field's name as its label says it, where the service's key reads differently. */
const labels: Partial<Record<keyof ItemForm, string>> = {
  low: 'Low estimate',
  high: 'High estimate',
  consignorName: 'Consignor name',
  consignorContact: 'Consignor contact',
  acquiredDate: 'Acquired date',
};

/**
 * The service's field problems keyed by the form's fields, each naming the field as its label
 * does ("High estimate is below the low estimate", not "High is ...").
 */
export function formErrorsOf(
  fieldErrors: Record<string, string>,
): Partial<Record<keyof ItemForm, string>> {
  const errors: Partial<Record<keyof ItemForm, string>> = {};
  for (const [field, message] of Object.entries(fieldErrors)) {
    const key = fieldKeys[field];
    if (!key) continue;
    const said = `${fieldLabel(field)} `;
    const label = labels[key];
    errors[key] ??=
      label && message.startsWith(said) ? `${label} ${message.slice(said.length)}` : message;
  }
  return errors;
}

export type Checked<T> =
  { ok: true; value: T } | { ok: false; errors: Partial<Record<keyof ItemForm, string>> };

/** The estimate in minor units, or what is wrong with it; both amounts are required. */
function estimateOf(
  form: ItemForm,
  currency: MoneyCurrency,
): Checked<{ low: number; high: number }> {
  const errors: Partial<Record<keyof ItemForm, string>> = {};
  const low = parseMoney(form.low, currency);
  const high = parseMoney(form.high, currency);
  if (!low.ok) errors.low = `Low estimate ${low.message}`;
  else if (low.minor === null) errors.low = 'Low estimate is required';
  if (!high.ok) errors.high = `High estimate ${high.message}`;
  else if (high.minor === null) errors.high = 'High estimate is required';
  if (low.ok && high.ok && low.minor !== null && high.minor !== null) {
    return { ok: true, value: { low: low.minor, high: high.minor } };
  }
  return { ok: false, errors };
}

const consignorOf = (form: ItemForm) =>
  form.consignorName.trim() || form.consignorContact.trim()
    ? { name: form.consignorName.trim(), contact: form.consignorContact.trim() }
    : null;

/** A new item as the service takes it; what is left blank the service fills in. */
export function bodyOf(form: ItemForm, currency: MoneyCurrency): Checked<ItemBody> {
  const estimate = estimateOf(form, currency);
  if (!estimate.ok) return estimate;
  return {
    ok: true,
    value: {
      title: form.title.trim(),
      ...(form.category ? { category: form.category } : {}),
      subcategory: form.subcategory.trim(),
      estimatedValue: estimate.value,
      condition: form.condition,
      status: form.status,
      location: form.location.trim(),
      ...(form.acquiredDate ? { acquiredDate: form.acquiredDate } : {}),
      description: form.description.trim(),
      consignor: consignorOf(form),
    },
  };
}

/** Only what changed from the item as read, so a save never undoes someone else's other edit. */
export function changesOf(item: InventoryItem, form: ItemForm): Checked<ItemUpdate> {
  const estimate = estimateOf(form, item.currency);
  if (!estimate.ok) return estimate;
  const changes: ItemUpdate = {};
  if (form.title.trim() !== item.title) changes.title = form.title.trim();
  if (form.category && form.category !== item.category) changes.category = form.category;
  if (form.subcategory.trim() !== item.subcategory) changes.subcategory = form.subcategory.trim();
  if (
    estimate.value.low !== item.estimatedValue.low ||
    estimate.value.high !== item.estimatedValue.high
  ) {
    changes.estimatedValue = estimate.value;
  }
  if (form.condition !== item.condition) changes.condition = form.condition;
  if (form.location.trim() !== item.location) changes.location = form.location.trim();
  if (form.acquiredDate && form.acquiredDate !== item.acquiredDate) {
    changes.acquiredDate = form.acquiredDate;
  }
  if (form.description.trim() !== item.description) changes.description = form.description.trim();
  const consignor = consignorOf(form);
  if (
    (consignor?.name ?? '') !== (item.consignor?.name ?? '') ||
    (consignor?.contact ?? '') !== (item.consignor?.contact ?? '')
  ) {
    changes.consignor = consignor;
  }
  return { ok: true, value: changes };
}

/** Save stays off until the title and both estimates are in. */
export const hasRequired = (form: ItemForm) =>
  Boolean(form.title.trim() && form.low.trim() && form.high.trim());
