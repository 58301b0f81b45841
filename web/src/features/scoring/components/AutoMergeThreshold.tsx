import {
  Button,
  Caption1,
  Field,
  makeStyles,
  MessageBar,
  MessageBarActions,
  MessageBarBody,
  MessageBarTitle,
  Slider,
  tokens,
} from '@fluentui/react-components';
import { AUTO_MERGE_DEFAULT } from '@contracts/scoring/scoring.schema';
import { useState } from 'react';
import { useNotify } from '../../../lib/toast';
import { permissionLabel } from '../../../lib/permission-text';
import { useAction } from '../../../lib/use-action';
import { useSaveScoringSettings, useScoringSettings } from '../api/scoring';

const useStyles = makeStyles({
  slider: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    maxWidth: '560px',
  },
  scale: {
    display: 'flex',
    justifyContent: 'space-between',
    color: tokens.colorNeutralForeground3,
  },
  fullWidth: { width: '100%' },
});

/** The match score at which duplicate bidders are merged without review. */
export function AutoMergeThreshold({ canEdit }: { canEdit: boolean }) {
  const styles = useStyles();
  const notify = useNotify();
  const saveSettings = useSaveScoringSettings();
  const { data } = useScoringSettings();
  const saved = data?.autoMergeThreshold ?? AUTO_MERGE_DEFAULT;
  const [open, setOpen] = useState(false);
  const [value, setValue] = useState<number | null>(null);
  const shown = value ?? saved;
  const save = useAction(
    async () => {
      await saveSettings({ autoMergeThreshold: shown });
      setValue(null);
      notify.success(`Auto-merge threshold set to ${shown}%`);
    },
    { onError: (message) => notify.error('The threshold was not saved', message) },
  );
  return (
    <MessageBar intent="info" layout="multiline">
      <MessageBarBody>
        <MessageBarTitle>Auto-merge threshold: {saved}%</MessageBarTitle>
        Pairs matching at {saved}% or more are merged automatically when bidders are added or
        imported; the rest wait here for review.
        {canEdit
          ? null
          : ` Changing it needs the ${permissionLabel('bidders:scoring')} permission.`}
        {open ? (
          <div className={styles.slider}>
            <Field label={`Threshold: ${shown}%`} hint="Recommended: 90 to 95%.">
              <Slider
                className={styles.fullWidth}
                min={70}
                max={100}
                value={shown}
                disabled={!canEdit}
                onChange={(_, slider) => setValue(slider.value)}
              />
            </Field>
            <div className={styles.scale}>
              <Caption1>Conservative 70%</Caption1>
              <Caption1>Strict 100%</Caption1>
            </div>
            <div>
              <Button
                appearance="primary"
                size="small"
                disabled={!canEdit || save.busy || shown === saved}
                onClick={() => void save.run()}
              >
                {save.busy ? 'Saving...' : 'Save threshold'}
              </Button>
            </div>
          </div>
        ) : null}
      </MessageBarBody>
      {canEdit ? (
        <MessageBarActions>
          <Button size="small" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? 'Hide Settings' : 'Adjust'}
          </Button>
        </MessageBarActions>
      ) : null}
    </MessageBar>
  );
}
