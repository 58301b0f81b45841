import {
  Body1,
  Caption1,
  Link,
  makeStyles,
  Skeleton,
  SkeletonItem,
  tokens,
} from '@fluentui/react-components';
import { ChatRegular, MailRegular, PhoneRegular } from '@fluentui/react-icons';
import { messageOf } from '../lib/api-client';
import { useSupportContacts } from '../lib/support-contacts';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  contact: {
    display: 'flex',
    alignItems: 'flex-start',
    gap: tokens.spacingHorizontalM,
    '& > svg': { flexShrink: 0, fontSize: '20px', marginTop: '2px' },
  },
  text: { display: 'flex', flexDirection: 'column', minWidth: 0, overflowWrap: 'anywhere' },
  muted: { color: tokens.colorNeutralForeground3 },
});

/** The support team's email, phone and live chat, each with when it answers, from configuration. */
export function SupportContacts() {
  const styles = useStyles();
  const { data, error } = useSupportContacts();
  if (error) {
    return <Caption1 className={styles.muted}>Contacts unavailable: {messageOf(error)}</Caption1>;
  }
  if (!data) {
    return (
      <Skeleton aria-label="Loading the support contacts">
        <SkeletonItem />
        <SkeletonItem />
      </Skeleton>
    );
  }
  return (
    <div className={styles.list}>
      <div className={styles.contact}>
        <MailRegular aria-hidden />
        <div className={styles.text}>
          <Body1>
            <Link href={`mailto:${data.email}`}>{data.email}</Link>
          </Body1>
          <Caption1 className={styles.muted}>{data.replyTime}</Caption1>
        </div>
      </div>
      {data.phone ? (
        <div className={styles.contact}>
          <PhoneRegular aria-hidden />
          <div className={styles.text}>
            <Body1>
              <Link href={`tel:${data.phone.number.replace(/[^+\d]/g, '')}`}>
                {data.phone.number}
              </Link>
            </Body1>
            {data.phone.hours ? (
              <Caption1 className={styles.muted}>{data.phone.hours}</Caption1>
            ) : null}
          </div>
        </div>
      ) : null}
      {data.chatHours ? (
        <div className={styles.contact}>
          <ChatRegular aria-hidden />
          <div className={styles.text}>
            <Body1>Live chat</Body1>
            <Caption1 className={styles.muted}>{data.chatHours}</Caption1>
          </div>
        </div>
      ) : null}
    </div>
  );
}
