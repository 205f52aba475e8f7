import 'server-only';

/** True when an `Accept-Encoding` header takes gzip (not refused with `q=0`). */
export function acceptsGzip(header: string | null | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    return coding === 'gzip' && !params.some((param) => /^\s*q=0(\.0*)?\s*$/.test(param));
  });
}
