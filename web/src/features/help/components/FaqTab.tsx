import {
  Accordion,
  AccordionHeader,
  AccordionItem,
  AccordionPanel,
  Body1,
  Button,
  Card,
  makeStyles,
  Subtitle1,
  tokens,
} from '@fluentui/react-components';
import { useState } from 'react';
import { searchFaqs } from '../content';

const useStyles = makeStyles({
  stack: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  card: { padding: tokens.spacingHorizontalL },
  answer: {
    paddingBottom: tokens.spacingVerticalM,
    color: tokens.colorNeutralForeground2,
    lineHeight: tokens.lineHeightBase400,
  },
  empty: {
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'flex-start',
    gap: tokens.spacingVerticalM,
    padding: tokens.spacingHorizontalL,
  },
});

/** The FAQ by category: one answer open at a time, and closing it again works. */
export function FaqTab({ query, onClear }: { query: string; onClear(): void }) {
  const styles = useStyles();
  const [open, setOpen] = useState<string | null>(null);
  const categories = searchFaqs(query);
  if (!categories.length) {
    return (
      <Card className={styles.empty}>
        <Body1>
          No questions match “{query}”. Try other words, or ask us on the Contact Support tab.
        </Body1>
        <Button onClick={onClear}>Clear Search</Button>
      </Card>
    );
  }
  return (
    <div className={styles.stack}>
      {categories.map((category) => (
        <Card key={category.id} className={styles.card}>
          <Subtitle1 as="h2">{category.title}</Subtitle1>
          <Accordion
            collapsible
            openItems={open ? [open] : []}
            onToggle={(_, data) =>
              setOpen(data.openItems.includes(data.value as string) ? (data.value as string) : null)
            }
          >
            {category.faqs.map((faq) => {
              const value = `${category.id}:${faq.question}`;
              return (
                <AccordionItem key={value} value={value}>
                  <AccordionHeader as="h3">{faq.question}</AccordionHeader>
                  <AccordionPanel>
                    <Body1 as="p" className={styles.answer}>
                      {faq.answer}
                    </Body1>
                  </AccordionPanel>
                </AccordionItem>
              );
            })}
          </Accordion>
        </Card>
      ))}
    </div>
  );
}
