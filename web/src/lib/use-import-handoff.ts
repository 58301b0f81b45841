import type {
  ColumnMapping,
  CompleteUpload,
  Upload,
  UploadPreview,
} from '@contracts/uploads/uploads.schema';
import { useRef, useState } from 'react';
import { ApiError, messageOf } from './api-client';
import { isUploadAborted, shareSent } from './block-upload';
import {
  initialMappings,
  mappingsReady,
  previewNeedsAttention,
  toFileMappings,
  type Mappings,
} from './column-mapping';
import { sendFiles, type SessionCalls } from './upload-session';

/**
 * A feature's Import dialog handing its files to the Data Processing Center (issue 15): the
 * upload is created and its files go to Blob Storage with progress; the first rows are read and,
 * when a required field has no column or a file cannot be read, the mapping is shown to fix
 * first; otherwise (and once it is fixed) processing is queued and the dialog follows it.
 */
export interface HandoffCalls extends SessionCalls {
  /** GET /data-upload/{id}/preview. */
  preview(upload: Upload): Promise<UploadPreview>;
  /** POST /data-upload/{id}/complete with the upload's ETag. */
  complete(upload: Upload, body: CompleteUpload): Promise<Upload>;
}

export type HandoffState =
  | { step: 'idle' }
  /** Bytes on their way; `sent` is the share sent, 0 to 1. */
  | { step: 'sending'; sent: number }
  /** The files are in; the first rows are being read. */
  | { step: 'checking'; upload: Upload }
  /** A person has to look at the mapping before processing. */
  | { step: 'mapping'; upload: Upload; preview: UploadPreview; mappings: Mappings }
  | { step: 'starting'; upload: Upload; preview: UploadPreview | null; mappings: Mappings }
  /** Queued: the worker has it; follow it by its status. */
  | { step: 'queued'; upload: Upload };

/** A failure in words; a refusal's reasons (one per file) rather than a pointer to fields. */
function problemText(failure: unknown): string {
  const fields =
    failure instanceof ApiError
      ? ((failure.details as { fields?: { message: string }[] } | undefined)?.fields ?? [])
      : [];
  return fields.length ? fields.map((field) => field.message).join(' ') : messageOf(failure);
}

export function useImportHandoff(
  /** The feature's calls for these files. */
  callsFor: (files: File[]) => HandoffCalls,
  /** What `complete` carries besides the mapping (an auction's id, say). */
  extra: Omit<CompleteUpload, 'mappings'> = {},
) {
  const [state, setState] = useState<HandoffState>({ step: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const abort = useRef<AbortController | null>(null);
  const calls = useRef<HandoffCalls | null>(null);
  /** The send under way, so a cancel can wait until the upload is gone. */
  const running = useRef<Promise<void>>(Promise.resolve());

  const complete = async (
    upload: Upload,
    preview: UploadPreview | null,
    mappings: Mappings,
    /** The mapping was shown: a failure goes back to it, to try again or cancel. */
    shown: boolean,
  ): Promise<void> => {
    const using = calls.current;
    if (!using) return;
    setState({ step: 'starting', upload, preview, mappings });
    try {
      const queued = await using.complete(upload, {
        ...extra,
        ...(preview ? { mappings: toFileMappings(preview, mappings) } : {}),
      });
      setState({ step: 'queued', upload: queued });
    } catch (failure) {
      setError(problemText(failure));
      // Refused by content (a 400), the upload stays in the history in error, saying why.
      const refused = failure instanceof ApiError && failure.status === 400;
      if (shown && preview && !refused) {
        setState({ step: 'mapping', upload, preview, mappings });
        return;
      }
      if (!refused) await using.discard(upload).catch(() => undefined);
      setState({ step: 'idle' });
    }
  };

  /** Sends the files; resolves once they are queued, waiting on a mapping, or stopped. */
  const run = async (files: File[]) => {
    const using = callsFor(files);
    calls.current = using;
    const controller = new AbortController();
    abort.current = controller;
    setError(null);
    setState({ step: 'sending', sent: 0 });
    let upload: Upload;
    try {
      upload = await sendFiles(using, files, {
        signal: controller.signal,
        onProgress: (sent) => setState({ step: 'sending', sent: shareSent(sent, files) }),
      });
    } catch (failure) {
      setState({ step: 'idle' });
      setError(isUploadAborted(failure) ? null : problemText(failure));
      return;
    } finally {
      abort.current = null;
    }
    setState({ step: 'checking', upload });
    let preview: UploadPreview | null = null;
    try {
      preview = await using.preview(upload);
    } catch {
      // Without a preview the importer's own detection decides, as it would have anyway.
    }
    if (preview && previewNeedsAttention(preview)) {
      setState({ step: 'mapping', upload, preview, mappings: initialMappings(preview) });
      return;
    }
    await complete(upload, preview, preview ? initialMappings(preview) : {}, false);
  };

  const send = (files: File[]) => {
    const sent = run(files);
    running.current = sent;
    return sent;
  };
  const sending = state.step === 'sending';

  return {
    state,
    error,
    sending,
    send,
    /** Changes one file's mapping while it is shown. */
    map: (file: number, mapping: ColumnMapping) =>
      setState((current) =>
        current.step === 'mapping'
          ? { ...current, mappings: { ...current.mappings, [file]: mapping } }
          : current,
      ),
    /** Whether the mapping shown fills every required field. */
    ready: state.step === 'mapping' && mappingsReady(state.preview, state.mappings),
    /** Queues the processing with the mapping shown. */
    start: () =>
      state.step === 'mapping'
        ? complete(state.upload, state.preview, state.mappings, true)
        : Promise.resolve(),
    /**
     * Stops the import before it is queued: the bytes on their way are stopped, or the upload
     * waiting for its mapping is cancelled; either way it leaves no entry behind.
     */
    cancel: async () => {
      if (abort.current) {
        abort.current.abort();
        await running.current;
        return;
      }
      const using = calls.current;
      if (state.step !== 'mapping') return;
      if (using) {
        await using
          .cancel(state.upload)
          .catch(() => using.discard(state.upload))
          .catch(() => undefined);
      }
      setState({ step: 'idle' });
    },
    reset: () => {
      setError(null);
      setState({ step: 'idle' });
    },
  };
}

export type ImportHandoff = ReturnType<typeof useImportHandoff>;
