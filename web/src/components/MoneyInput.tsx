import { Field, Input, type InputProps } from '@fluentui/react-components';
import { exponentOf, symbolOf, type MoneyCurrency } from '../lib/money';

/**
 * An amount typed in major units of a currency (its symbol shown before it); the form turns it
 * into minor units with parseMoney.
 */
export function MoneyInput({
  label,
  currency,
  value,
  onChange,
  error,
  hint,
  required,
  inputProps,
}: {
  label: string;
  currency: MoneyCurrency;
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  hint?: string;
  required?: boolean;
  inputProps?: Omit<InputProps, 'value' | 'onChange'>;
}) {
  return (
    <Field
      label={label}
      required={required ?? false}
      hint={hint}
      validationMessage={error}
      validationState={error ? 'error' : 'none'}
    >
      <Input
        {...inputProps}
        inputMode={exponentOf(currency) === 0 ? 'numeric' : 'decimal'}
        contentBefore={<span aria-hidden="true">{symbolOf(currency)}</span>}
        value={value}
        onChange={(_, data) => onChange(data.value)}
        autoComplete="off"
      />
    </Field>
  );
}
