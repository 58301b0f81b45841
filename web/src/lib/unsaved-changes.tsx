import {
  Body1,
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
} from '@fluentui/react-components';
import { SaveRegular } from '@fluentui/react-icons';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useBlocker, type Location } from 'react-router';
import { messageOf } from './api-client';
import { useNotify } from './toast';

/**
 * Unsaved edits across the tabs of one page (Account Settings): each tab with a form says whether
 * it holds edits and how to save or drop them; the page saves them all at once, and asks before
 * someone leaves a tab (or the page, or reloads) with edits they would lose.
 */

interface Entry {
  label: string;
  dirty: boolean;
  save(): Promise<void>;
  discard(): void;
}

interface Registry {
  set(id: string, entry: Entry): void;
  remove(id: string): void;
}

const RegistryContext = createContext<Registry | null>(null);
const EntriesContext = createContext<Record<string, Entry>>({});

/**
 * A tab's part: call it on every render with the tab's id (its address segment), label, whether
 * it holds edits, how to save them (throwing on failure; no toast, the caller reports) and how to
 * drop them. Outside a provider it does nothing.
 */
export function useUnsavedChanges({
  id,
  label,
  dirty,
  save,
  discard,
}: {
  id: string;
  label: string;
  dirty: boolean;
  save(): Promise<void>;
  discard(): void;
}) {
  const registry = useContext(RegistryContext);
  const latest = useRef({ save, discard });
  useEffect(() => {
    latest.current = { save, discard };
  });
  useEffect(() => {
    if (!registry) return;
    registry.set(id, {
      label,
      dirty,
      save: () => latest.current.save(),
      discard: () => latest.current.discard(),
    });
  }, [registry, id, label, dirty]);
  useEffect(() => (registry ? () => registry.remove(id) : undefined), [registry, id]);
}

/** The ids of the tabs holding edits, e.g. to keep them mounted while another tab shows. */
export function useDirtyIds(): string[] {
  const entries = useContext(EntriesContext);
  return Object.keys(entries).filter((id) => entries[id]?.dirty);
}

/** "Inventory", "Inventory and Payments", "Sync, Inventory and Payments". */
function listed(labels: string[]): string {
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
}

/** The tab a settings address shows (`/settings/{tab}`), or undefined outside `base`. */
function tabOf(pathname: string, base: string): string | undefined {
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return undefined;
  return pathname.slice(base.length + 1).split('/')[0] ?? '';
}

export function UnsavedChangesProvider({
  base,
  order,
  children,
}: {
  /** The page's address; its tabs are `{base}/{id}`. */
  base: string;
  /** The tabs' ids in the order they show, so messages name them in that order. */
  order: string[];
  children: ReactNode;
}) {
  const [registered, setEntries] = useState<Record<string, Entry>>({});
  const entries = useMemo(
    () =>
      Object.fromEntries(
        Object.entries(registered).sort(
          ([a], [b]) =>
            (order.indexOf(a) + 1 || order.length + 1) - (order.indexOf(b) + 1 || order.length + 1),
        ),
      ),
    [registered, order],
  );
  const registry = useMemo<Registry>(
    () => ({
      set: (id, entry) => setEntries((current) => ({ ...current, [id]: entry })),
      remove: (id) =>
        setEntries((current) => {
          if (!(id in current)) return current;
          const { [id]: _gone, ...rest } = current;
          return rest;
        }),
    }),
    [],
  );
  const dirty = Object.entries(entries).filter(([, entry]) => entry.dirty);
  const anyDirty = dirty.length > 0;

  // Leaving a tab with edits, or the page with any: the tab's own edits, or all of them.
  const blocker = useBlocker(
    useCallback(
      ({
        currentLocation,
        nextLocation,
      }: {
        currentLocation: Location;
        nextLocation: Location;
      }) => {
        if (!anyDirty || currentLocation.pathname === nextLocation.pathname) return false;
        const next = tabOf(nextLocation.pathname, base);
        if (next === undefined) return true;
        const current = tabOf(currentLocation.pathname, base);
        return current !== undefined && entries[current]?.dirty === true;
      },
      [anyDirty, base, entries],
    ),
  );

  useEffect(() => {
    if (!anyDirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [anyDirty]);

  const blocked = blocker.state === 'blocked' ? blocker : undefined;
  const leavingPage = blocked ? tabOf(blocked.location.pathname, base) === undefined : false;
  const leavingTab = blocked && !leavingPage ? tabOf(window.location.pathname, base) : undefined;
  const asked = leavingPage
    ? dirty.map(([, entry]) => entry)
    : dirty.filter(([id]) => id === leavingTab).map(([, entry]) => entry);

  return (
    <RegistryContext.Provider value={registry}>
      <EntriesContext.Provider value={entries}>
        {children}
        <Dialog
          open={blocked !== undefined}
          modalType="alert"
          onOpenChange={(_, data) => !data.open && blocked?.reset()}
        >
          <DialogSurface>
            <DialogBody>
              <DialogTitle>Unsaved changes</DialogTitle>
              <DialogContent>
                <Body1>
                  {leavingPage
                    ? `You have unsaved changes in ${listed(asked.map((entry) => entry.label))}. Leave and discard them?`
                    : `You have unsaved changes in ${listed(asked.map((entry) => entry.label))}. Keep them to save later with Save All Changes, or discard them.`}
                </Body1>
              </DialogContent>
              <DialogActions fluid>
                <Button appearance="primary" onClick={() => blocked?.reset()}>
                  Stay
                </Button>
                {leavingPage ? null : (
                  <Button onClick={() => blocked?.proceed()}>Keep changes</Button>
                )}
                <Button
                  onClick={() => {
                    asked.forEach((entry) => entry.discard());
                    blocked?.proceed();
                  }}
                >
                  Discard changes
                </Button>
              </DialogActions>
            </DialogBody>
          </DialogSurface>
        </Dialog>
      </EntriesContext.Provider>
    </RegistryContext.Provider>
  );
}

/**
 * "Save All Changes": saves every tab holding edits at once, then says in one toast which were
 * saved and which were not, and why.
 */
export function SaveAllButton() {
  const entries = useContext(EntriesContext);
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const dirty = Object.values(entries).filter((entry) => entry.dirty);
  const saveAll = async () => {
    setBusy(true);
    const results = await Promise.allSettled(dirty.map((entry) => entry.save()));
    setBusy(false);
    const saved = dirty.filter((_, index) => results[index]?.status === 'fulfilled');
    const failed = dirty.flatMap((entry, index) => {
      const result = results[index];
      return result?.status === 'rejected' ? [`${entry.label}: ${messageOf(result.reason)}`] : [];
    });
    const savedText = `Saved ${listed(saved.map((entry) => entry.label))}.`;
    if (failed.length === 0) notify.success('All changes saved', savedText);
    else {
      notify.error(
        saved.length ? 'Some changes were not saved' : 'No changes were saved',
        `${saved.length ? `${savedText} ` : ''}Not saved: ${failed.join('; ')}`,
      );
    }
  };
  return (
    <Button
      appearance="primary"
      icon={<SaveRegular />}
      disabled={dirty.length === 0 || busy}
      onClick={() => void saveAll()}
    >
      {busy ? 'Saving...' : 'Save All Changes'}
    </Button>
  );
}
