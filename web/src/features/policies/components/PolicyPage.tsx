import {
  Body1,
  Caption1,
  makeStyles,
  Subtitle1,
  Text,
  Title2,
  tokens,
} from '@fluentui/react-components';
import { Link as RouterLink } from 'react-router';
import { AppLink } from '../../../components/AppLink';
import { ThemeToggle } from '../../../components/ThemeToggle';
import { privacyPolicy, termsOfService, type Policy } from '../content';

const useStyles = makeStyles({
  page: {
    minHeight: '100vh',
    boxSizing: 'border-box',
    display: 'flex',
    flexDirection: 'column',
    alignItems: 'center',
    gap: tokens.spacingVerticalL,
    padding: `${tokens.spacingVerticalXL} ${tokens.spacingHorizontalL}`,
    backgroundColor: tokens.colorNeutralBackground2,
    color: tokens.colorNeutralForeground1,
    '@media (max-width: 480px)': { padding: tokens.spacingHorizontalS },
  },
  top: {
    width: '100%',
    maxWidth: '800px',
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
  },
  brand: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    color: tokens.colorNeutralForeground1,
    textDecoration: 'none',
  },
  logo: { width: '32px', height: '32px' },
  document: {
    width: '100%',
    maxWidth: '800px',
    boxSizing: 'border-box',
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalL,
    padding: `${tokens.spacingVerticalXXL} ${tokens.spacingHorizontalXXXL}`,
    borderRadius: tokens.borderRadiusXLarge,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow4,
    '@media (max-width: 640px)': { padding: tokens.spacingHorizontalL },
  },
  heading: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  title: { margin: 0 },
  muted: { color: tokens.colorNeutralForeground3 },
  summary: {
    margin: 0,
    padding: tokens.spacingHorizontalL,
    borderRadius: tokens.borderRadiusMedium,
    borderLeft: `${tokens.strokeWidthThicker} solid ${tokens.colorBrandStroke1}`,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  section: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  sectionTitle: { margin: 0 },
  paragraph: { margin: 0, lineHeight: tokens.lineHeightBase400 },
  points: {
    margin: 0,
    paddingInlineStart: tokens.spacingHorizontalXL,
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    lineHeight: tokens.lineHeightBase400,
  },
  footer: {
    display: 'flex',
    flexWrap: 'wrap',
    gap: tokens.spacingHorizontalL,
    paddingTop: tokens.spacingVerticalM,
    borderTop: `${tokens.strokeWidthThin} solid ${tokens.colorNeutralStroke2}`,
  },
});

const byName = { terms: termsOfService, privacy: privacyPolicy } as const;

/**
 * The Terms of Service or the Privacy Policy: a page of its own that anyone can read, signed in
 * or not (sign-up links here in a new tab, so the form keeps what was typed).
 */
export default function PolicyPage({ name }: { name: keyof typeof byName }) {
  const styles = useStyles();
  const policy: Policy = byName[name];
  const other = name === 'terms' ? privacyPolicy : termsOfService;
  return (
    <main className={styles.page}>
      <div className={styles.top}>
        <RouterLink to="/" className={styles.brand} aria-label="Lotwise home">
          <img src="/favicon.svg" alt="" className={styles.logo} />
          <Text weight="semibold" size={500}>
            Lotwise
          </Text>
        </RouterLink>
        <ThemeToggle />
      </div>
      <article className={styles.document} aria-labelledby="policy-title">
        <div className={styles.heading}>
          <Title2 as="h1" id="policy-title" className={styles.title}>
            {policy.title}
          </Title2>
          <Caption1 className={styles.muted}>Last updated {policy.updated}</Caption1>
        </div>
        <Body1 as="p" className={styles.summary}>
          {policy.summary}
        </Body1>
        {policy.sections.map((section) => (
          <section key={section.heading} className={styles.section}>
            <Subtitle1 as="h2" className={styles.sectionTitle}>
              {section.heading}
            </Subtitle1>
            {section.paragraphs.map((paragraph) => (
              <Body1 as="p" key={paragraph} className={styles.paragraph}>
                {paragraph}
              </Body1>
            ))}
            {section.points ? (
              <ul className={styles.points}>
                {section.points.map((point) => (
                  <li key={point}>
                    <Body1>{point}</Body1>
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
        ))}
        <nav className={styles.footer} aria-label="Policies">
          <AppLink to={other.path}>{other.title}</AppLink>
          <AppLink to="/">Back to Lotwise</AppLink>
        </nav>
      </article>
    </main>
  );
}
