import { Combobox, Dropdown, Field, makeStyles, Option, Spinner } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useAssignees, useAuctionSearch, useBidderSearch } from '../api/legal';

// Fluent gives these a minimum width of their own; the form's column decides instead.
const useStyles = makeStyles({ control: { minWidth: 0, width: '100%' } });

interface Picked {
  id: string;
  label: string;
}

/** What the server found for the text typed so far, waiting a moment after the last key. */
function useDebounced(value: string) {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), 250);
    return () => clearTimeout(timer);
  }, [value]);
  return settled;
}

/**
 * One record picked by searching as one types (the server searches). Emptying the box or its
 * clear button unpicks it.
 */
function SearchPicker({
  label,
  hint,
  placeholder,
  selected,
  found,
  loading,
  query,
  onQuery,
  onChange,
  error,
  none,
}: {
  label: string;
  hint: string;
  placeholder: string;
  selected: Picked | null;
  found: Picked[];
  loading: boolean;
  query: string;
  /** The box's text, and whether someone typed it (a search) or a pick filled it in. */
  onQuery(text: string, typed: boolean): void;
  onChange(picked: Picked | null): void;
  error?: string | undefined;
  none: string;
}) {
  const styles = useStyles();
  // The picked one stays choosable even when the search no longer finds it.
  const options =
    selected && !found.some((candidate) => candidate.id === selected.id)
      ? [selected, ...found]
      : found;
  return (
    <Field
      label={label}
      hint={hint}
      validationMessage={error}
      validationState={error ? 'error' : 'none'}
    >
      <Combobox
        className={styles.control}
        freeform
        clearable
        placeholder={placeholder}
        value={query}
        selectedOptions={selected ? [selected.id] : []}
        onChange={(event) => {
          onQuery(event.target.value, true);
          if (!event.target.value) onChange(null);
        }}
        onOptionSelect={(_, data) => {
          const chosen = options.find((candidate) => candidate.id === data.optionValue) ?? null;
          onChange(chosen);
          onQuery(chosen?.label ?? '', false);
        }}
      >
        {loading && !options.length ? (
          <Option value="" disabled text="Searching">
            <Spinner size="extra-tiny" label="Searching..." />
          </Option>
        ) : null}
        {!loading && !options.length ? (
          <Option value="" disabled text={none}>
            {none}
          </Option>
        ) : null}
        {options.map((candidate) => (
          <Option key={candidate.id} value={candidate.id} text={candidate.label}>
            {candidate.label}
          </Option>
        ))}
      </Combobox>
    </Field>
  );
}

/** The auction a case is about, if any, found by title. */
export function AuctionPicker({
  hint = 'Optional. Search by title.',
  value,
  onChange,
  error,
}: {
  hint?: string;
  value: { id: string; title: string } | null;
  onChange(auction: { id: string; title: string } | null): void;
  error?: string | undefined;
}) {
  const [query, setQuery] = useState({ text: value?.title ?? '', typed: false });
  const search = useDebounced(query.typed ? query.text : '');
  const { data, isLoading } = useAuctionSearch(search);
  const found = (data?.auctions ?? []).map((auction) => ({
    id: auction.id,
    label: auction.title,
  }));
  return (
    <SearchPicker
      label="Auction"
      hint={hint}
      placeholder="Start typing an auction..."
      selected={value && { id: value.id, label: value.title }}
      found={found}
      loading={isLoading}
      query={query.text}
      onQuery={(text, typed) => setQuery({ text, typed })}
      onChange={(picked) => onChange(picked && { id: picked.id, title: picked.label })}
      error={error}
      none="No auctions match"
    />
  );
}

/** The bidder a case is about, if any, found by name, bidder ID or email. */
export function BidderPicker({
  hint = 'Optional. Search by name, bidder ID or email.',
  value,
  onChange,
  error,
}: {
  hint?: string;
  value: { id: string; name: string } | null;
  onChange(bidder: { id: string; name: string } | null): void;
  error?: string | undefined;
}) {
  const [query, setQuery] = useState({ text: value?.name ?? '', typed: false });
  const search = useDebounced(query.typed ? query.text : '');
  const { data, isLoading } = useBidderSearch(search);
  const bidders = data?.bidders ?? [];
  const nameOf = (id: string) => {
    const bidder = bidders.find((candidate) => candidate.id === id);
    return bidder && `${bidder.firstName} ${bidder.lastName}`;
  };
  return (
    <SearchPicker
      label="Bidder"
      hint={hint}
      placeholder="Start typing a name..."
      selected={value && { id: value.id, label: value.name }}
      found={bidders.map((bidder) => ({
        id: bidder.id,
        label: `${bidder.firstName} ${bidder.lastName} (${bidder.bidderId})`,
      }))}
      loading={isLoading}
      query={query.text}
      onQuery={(text, typed) => setQuery({ text, typed })}
      onChange={(picked) =>
        onChange(picked && { id: picked.id, name: nameOf(picked.id) ?? picked.label })
      }
      error={error}
      none="No bidders match"
    />
  );
}

/** Whom the case is assigned to: one of the members who may work it, or nobody yet. */
export function AssigneePicker({
  label = 'Assigned to',
  value,
  onChange,
  error,
  current,
}: {
  label?: string;
  /** A member's id; blank is unassigned. */
  value: string;
  onChange(id: string): void;
  error?: string | undefined;
  /** The one assigned now, shown even if they may no longer be chosen. */
  current?: { id: string; name: string } | null;
}) {
  const styles = useStyles();
  const { data } = useAssignees();
  const people = [...(data?.assignees ?? [])];
  if (current && !people.some((person) => person.id === current.id)) people.unshift(current);
  const chosen = people.find((person) => person.id === value);
  return (
    <Field
      label={label}
      hint="Optional."
      validationMessage={error}
      validationState={error ? 'error' : 'none'}
    >
      <Dropdown
        className={styles.control}
        value={chosen?.name ?? 'Unassigned'}
        selectedOptions={[value]}
        onOptionSelect={(_, data) => onChange(data.optionValue ?? '')}
      >
        <Option value="">Unassigned</Option>
        {people.map((person) => (
          <Option key={person.id} value={person.id}>
            {person.name}
          </Option>
        ))}
      </Dropdown>
    </Field>
  );
}
