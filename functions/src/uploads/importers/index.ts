import type { ImporterDefinition } from '../importer.js';
import type { UploadCategory } from '../uploads.schema.js';
import { auctionsImporter } from './auctions.js';
import { biddersImporter } from './bidders.js';
import { inventoryImporter } from './inventory.js';
import { legalImporter } from './legal.js';

/** The importer of each category whose rows become records; the others are stored and counted. */
const importers: Partial<Record<UploadCategory, ImporterDefinition>> = {
  bidders: biddersImporter,
  inventory: inventoryImporter,
  auctions: auctionsImporter,
  legal: legalImporter,
};

/** The category's importer, or undefined for a category whose files are only stored. */
export function importerFor(category: UploadCategory): ImporterDefinition | undefined {
  return importers[category];
}
