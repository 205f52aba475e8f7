import type { KubeObject } from '@/lib/k8s/types';

/**
 * Hostile text for proving the UI renders resource text as text: markup with handlers, a script-closing tag, a
 * `javascript:` URL and a right-to-left override. The handlers only ever try to reach `XSS_BEACON_URL` or set
 * `window.__xss`, so a test can tell whether anything executed.
 */
export const XSS_BEACON_URL = 'http://127.0.0.1:9/xss-beacon';

/** The corpus, one string per attack. */
export const XSS_CORPUS = [
  `<img src=x onerror="fetch('${XSS_BEACON_URL}');window.__xss=1">`,
  '</script><script>window.__xss=1</script>',
  'javascript:window.__xss=1//',
  '<svg onload="window.__xss=1"><a href="javascript:window.__xss=1">click</a></svg>',
  'payload\u202Egnp.exe',
] as const;

/** Name of the ClusterExtension that carries the corpus. */
export const XSS_PROBE_EXTENSION = 'xss-corpus-probe';

/** One line of the corpus, as it appears in messages and log lines. */
export const XSS_MESSAGE = `bundle unpack failed: ${XSS_CORPUS.join(' ')}`;

/**
 * A ClusterExtension whose labels and annotations carry the corpus. A real API server would refuse these label
 * values; the embedded one does not validate label syntax, which is exactly what a hostile must-gather could carry.
 */
export function buildXssProbeExtension(namespace: string): KubeObject {
  return {
    apiVersion: 'olm.operatorframework.io/v1',
    kind: 'ClusterExtension',
    metadata: {
      name: XSS_PROBE_EXTENSION,
      labels: { 'example.com/probe': XSS_CORPUS[0], 'example.com/rtl': XSS_CORPUS[4] },
      annotations: {
        'example.com/script': XSS_CORPUS[1],
        'example.com/link': XSS_CORPUS[2],
        'example.com/svg': XSS_CORPUS[3],
      },
    },
    spec: {
      namespace,
      serviceAccount: { name: 'xss-probe-installer' },
      source: {
        sourceType: 'Catalog',
        catalog: { packageName: 'xss-corpus-probe', channels: ['alpha'], upgradeConstraintPolicy: 'CatalogProvided' },
      },
    },
  };
}
