import { Combobox, Field, Option } from '@fluentui/react-components';
import { useState } from 'react';
import { useAuctionsByStatus } from '../api/payments';

export interface PickedAuction {
  id: string;
  title: string;
}

/** A Completed auction of the account, by title: the sales invoices and settlements follow. */
export function AuctionPicker({
  value,
  onChange,
  className,
}: {
  value: PickedAuction | null;
  onChange(auction: PickedAuction | null): void;
  className?: string;
}) {
  const [search, setSearch] = useState(value?.title ?? '');
  // Typing opens the list, however the text arrived (keys, paste, autofill).
  const [open, setOpen] = useState(false);
  const { data } = useAuctionsByStatus('Completed', search === value?.title ? '' : search);
  const auctions = data?.auctions ?? [];
  return (
    <Field label="Completed auction" className={className}>
      <Combobox
        placeholder="Choose a completed auction"
        value={search}
        open={open}
        onOpenChange={(_, data) => setOpen(data.open)}
        selectedOptions={value ? [value.id] : []}
        onChange={(event) => {
          setSearch(event.target.value);
          setOpen(true);
          if (!event.target.value) onChange(null);
        }}
        onOptionSelect={(_, option) => {
          const picked = auctions.find((auction) => auction.id === option.optionValue);
          setSearch(picked?.title ?? '');
          onChange(picked ? { id: picked.id, title: picked.title } : null);
        }}
      >
        {auctions.length ? (
          auctions.map((auction) => (
            <Option key={auction.id} value={auction.id} text={auction.title}>
              {auction.title}
            </Option>
          ))
        ) : (
          <Option disabled value="" text="">
            No completed auctions match
          </Option>
        )}
      </Combobox>
    </Field>
  );
}
