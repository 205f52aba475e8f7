import { apiErrorSchema } from '@/lib/api/dto';
import { mustGatherCreatedSchema, type MustGatherCreatedDto } from '@/lib/api/must-gather-dto';

/** A failed must-gather request, with the server's message. */
export class MustGatherRequestError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = 'MustGatherRequestError';
  }
}

function parseAnswer(status: number, text: string): MustGatherCreatedDto {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new MustGatherRequestError(`the server answered ${status} without a JSON body`, status);
  }
  if (status >= 200 && status < 300) {
    const created = mustGatherCreatedSchema.safeParse(body);
    if (created.success) return created.data;
    throw new MustGatherRequestError('the server answered with an unexpected body', status);
  }
  const error = apiErrorSchema.safeParse(body);
  throw new MustGatherRequestError(error.success ? error.data.error.message : `the server answered ${status}`, status);
}

/**
 * Uploads an archive as the raw request body (streamed by the browser, analyzed by the server as it arrives) and
 * reports upload progress as a fraction in [0, 1]. XMLHttpRequest, because fetch has no upload progress.
 */
export function uploadArchive(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<MustGatherCreatedDto> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/must-gather?name=${encodeURIComponent(file.name)}`);
    xhr.setRequestHeader('Content-Type', 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    xhr.upload.onload = () => onProgress(1);
    xhr.onload = () => {
      try {
        resolve(parseAnswer(xhr.status, xhr.responseText));
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(new MustGatherRequestError('the upload failed (connection lost or refused)', 0));
    xhr.onabort = () => reject(new MustGatherRequestError('the upload was cancelled', 0));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** Asks the server to analyze a path under its must-gather directory. */
export async function openServerPath(path: string): Promise<MustGatherCreatedDto> {
  const response = await fetch('/api/must-gather', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ path }),
  });
  return parseAnswer(response.status, await response.text());
}
