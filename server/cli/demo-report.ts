/**
 * Collects a recorded demo into `<out>/<scenario>/` (video.webm next to the numbered screenshots and steps.json)
 * and writes `<out>/index.html`, a static page that plays the scenarios' videos one after another with each step's
 * caption and screenshot. Captions are the specs' own (steps.json), escaped as text.
 */
import { copyFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DemoManifest } from '@/e2e/demo/recorder';

export const VIDEO_FILE = 'video.webm';
const MANIFEST_FILE = 'steps.json';

/** Manifests of the scenarios present in `outDir`, in `order` (unknown names last). */
export function readManifests(outDir: string, order: readonly string[]): DemoManifest[] {
  if (!existsSync(outDir)) return [];
  const manifests = readdirSync(outDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(outDir, entry.name, MANIFEST_FILE)))
    .map((entry) => JSON.parse(readFileSync(join(outDir, entry.name, MANIFEST_FILE), 'utf8')) as DemoManifest);
  const rank = (name: string) => (order.includes(name) ? order.indexOf(name) : order.length);
  return manifests.sort((a, b) => rank(a.scenario) - rank(b.scenario) || a.scenario.localeCompare(b.scenario));
}

/** Copies the scenario's video out of Playwright's results into `<out>/<scenario>/video.webm`; false if none. */
export function collectVideo(outDir: string, manifest: DemoManifest): boolean {
  if (!existsSync(manifest.resultsDir)) return false;
  const webm = readdirSync(manifest.resultsDir)
    .filter((name) => name.endsWith('.webm'))
    .sort()[0];
  if (!webm) return false;
  copyFileSync(join(manifest.resultsDir, webm), join(outDir, manifest.scenario, VIDEO_FILE));
  return true;
}

/** Text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:1320px;padding:24px;background:#0f172a;color:#e2e8f0}
a{color:#93c5fd}section{margin:32px 0;padding-top:8px;border-top:1px solid #334155}video{width:100%;max-width:1280px;background:#000}
ol{padding-left:0;list-style:none;display:grid;grid-template-columns:repeat(auto-fill,minmax(300px,1fr));gap:16px}
figure{margin:0}img{width:100%;border:1px solid #334155}figcaption{font-size:14px}.now{outline:3px solid #facc15}`;

// Plays every video in document order and highlights the step whose caption is on screen (by elapsed share).
const SCRIPT = `const videos=[...document.querySelectorAll('video')];
videos.forEach((v,i)=>{v.addEventListener('ended',()=>{const next=videos[i+1];if(next){next.scrollIntoView({behavior:'smooth'});next.play();}});
v.addEventListener('timeupdate',()=>{const steps=[...v.closest('section').querySelectorAll('li')];
const at=Math.min(steps.length-1,Math.floor(v.currentTime/(v.duration||1)*steps.length));steps.forEach((s,j)=>s.classList.toggle('now',j===at));});});`;

/** The static index page for the collected scenarios. */
export function renderIndex(manifests: readonly DemoManifest[], generatedAt = new Date()): string {
  const sections = manifests
    .map((m) => {
      const dir = encodeURIComponent(m.scenario);
      const steps = m.steps
        .map((s, i) => {
          const image = s.screenshot
            ? `<a href="${dir}/${encodeURIComponent(s.screenshot)}"><img src="${dir}/${encodeURIComponent(s.screenshot)}" alt="${escapeHtml(s.caption)}" loading="lazy"></a>`
            : '';
          return `<li><figure>${image}<figcaption>${i + 1}. ${escapeHtml(s.caption)}</figcaption></figure></li>`;
        })
        .join('\n');
      return `<section id="${escapeHtml(m.scenario)}">
<h2>${escapeHtml(m.scenario)}: ${escapeHtml(m.title)}</h2>
<video src="${dir}/${VIDEO_FILE}" controls preload="metadata" muted></video>
<ol>
${steps}
</ol>
</section>`;
    })
    .join('\n');
  const toc = manifests
    .map(
      (m) =>
        `<li><a href="#${encodeURIComponent(m.scenario)}">${escapeHtml(m.scenario)}</a>: ${escapeHtml(m.title)}</li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Update Health demos</title><style>${STYLE}</style></head>
<body>
<h1>Update Health demos</h1>
<p>Recorded ${escapeHtml(generatedAt.toISOString())} by <code>npm run demo</code>. The videos play one after another; each step's caption is shown on the page and below its screenshot.</p>
<ul>
${toc}
</ul>
${sections}
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/** Writes `<out>/index.html` for the manifests. */
export function writeIndex(outDir: string, manifests: readonly DemoManifest[]): string {
  const path = join(outDir, 'index.html');
  writeFileSync(path, renderIndex(manifests));
  return path;
}
