import { Combobox, Field, Option, Spinner } from '@fluentui/react-components';
import type { BidderListItem } from '@contracts/bidders/bidders.schema';
import { useEffect, useState } from 'react';
import { useBidderSearch } from '../api/auctions';

export const bidderName = (bidder: Pick<BidderListItem, 'firstName' | 'lastName'>) =>
  `${bidder.firstName} ${bidder.lastName}`;

/**
 * Finds bidders by name, bidder ID or email as one types (the server searches), and picks one or
 * several. Bidders who may not be picked stay listed with the reason beside them.
 */
export function BidderPicker({
  label,
  multiselect = false,
  selected,
  onChange,
  unavailable,
  error,
}: {
  label: string;
  multiselect?: boolean;
  selected: BidderListItem[];
  onChange(bidders: BidderListItem[]): void;
  /** Why a bidder cannot be picked here, by bidder id (e.g. "already registered"). */
  unavailable: Record<string, string>;
  error?: string | undefined;
}) {
  const [query, setQuery] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(query), 250);
    return () => clearTimeout(timer);
  }, [query]);
  const { data, isLoading } = useBidderSearch(search);
  const found = data?.bidders ?? [];
  // The chosen stay choosable (to unpick them) even when the search no longer finds them.
  const options = [
    ...selected.filter((bidder) => !found.some((candidate) => candidate.id === bidder.id)),
    ...found,
  ];
  const summary = selected.map(bidderName).join(', ');

  return (
    <Field
      label={label}
      hint="Search by name, bidder ID or email."
      validationMessage={error}
      validationState={error ? 'error' : 'none'}
    >
      <Combobox
        freeform
        multiselect={multiselect}
        placeholder={multiselect && selected.length ? summary : 'Start typing a name...'}
        value={query}
        selectedOptions={selected.map((bidder) => bidder.id)}
        onChange={(event) => setQuery(event.target.value)}
        onOptionSelect={(_, data) => {
          const chosen = data.selectedOptions
            .map((id) => options.find((bidder) => bidder.id === id))
            .filter((bidder): bidder is BidderListItem => Boolean(bidder));
          onChange(chosen);
          if (!multiselect) setQuery(chosen[0] ? bidderName(chosen[0]) : '');
        }}
      >
        {isLoading && !options.length ? (
          <Option value="" disabled text="Searching">
            <Spinner size="extra-tiny" label="Searching..." />
          </Option>
        ) : null}
        {!isLoading && !options.length ? (
          <Option value="" disabled text="No bidders found">
            No bidders match
          </Option>
        ) : null}
        {options.map((bidder) => {
          const reason = unavailable[bidder.id];
          const text = `${bidderName(bidder)} (${bidder.bidderId})`;
          return (
            <Option key={bidder.id} value={bidder.id} text={text} disabled={Boolean(reason)}>
              {`${text}${bidder.email ? ` · ${bidder.email}` : ''}${reason ? ` · ${reason}` : ''}`}
            </Option>
          );
        })}
      </Combobox>
    </Field>
  );
}
