// Idle and peak resident memory of the service on a given Node runtime (docs/performance.md, issue 14).
// Plain JavaScript, so that any Node can run it against any tree, including trees from before Node 24:
//   node bench/runtime-memory.mjs <node binary> <tree> <label> [node flags...]
//   e.g. node bench/runtime-memory.mjs node_modules/.bin/node . after --max-semi-space-size=16
//        node bench/runtime-memory.mjs /usr/bin/node ../old-tree before --import tsx
// It starts <tree>/server.ts as `npm start` does, waits 15 s for the workers' warm-up, reads VmRSS,
// uploads the 24 MP lace cuff three times in a row and twice at once, and prints one JSON line.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const [nodeBin, treeArg, label, ...nodeFlags] = process.argv.slice(2);
if (!nodeBin || !treeArg || !label) throw new Error('usage: runtime-memory.mjs <node> <tree> <label> [flags...]');
const tree = resolve(treeArg);
const design = readFileSync(resolve(import.meta.dirname, '../../shared/bench/lace-530-holes-24mp-6000x4000.png'));
const port = 18000 + Math.floor(Math.random() * 1000);
const dir = mkdtempSync(join(tmpdir(), 'runtime-memory-'));
const child = spawn(nodeBin, [...nodeFlags, 'server.ts'], {
  cwd: tree,
  env: {
    PATH: `${tree}/node_modules/.bin:${process.env.PATH}`,
    HOME: process.env.HOME,
    MALLOC_ARENA_MAX: '2',
    MALLOC_MMAP_THRESHOLD_: '1048576',
    PORT: String(port),
    DATABASE_URL: `file:${dir}/db.sqlite`,
    SITE_URL: `http://127.0.0.1:${port}`,
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const mb = (field) =>
  Math.round(
    Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024,
  );

await new Promise((listening) => child.stdout.on('data', (d) => String(d).includes('"listening"') && listening()));
// Not a test: the warm-up logs nothing, and 15 s is several times its length.
await new Promise((warm) => setTimeout(warm, 15_000));
const idleRssMB = mb('VmRSS');

const base = `http://127.0.0.1:${port}/api/agent/v1`;
async function upload() {
  const opened = await fetch(`${base}/jobs`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ productType: 'bracelet', size: { lengthMm: 165 }, widthMm: 35 }),
  }).then((r) => r.json());
  const answer = await fetch(`${base}/jobs/${opened.job.id}/submissions`, {
    method: 'POST',
    headers: { 'content-type': 'image/png', authorization: `Bearer ${opened.credentials.jobSecret}` },
    body: design,
  });
  const body = await answer.json();
  return `${answer.status} ${body.submission?.status} ${body.submission?.durationMs} ms`;
}
const uploads = [];
for (let i = 0; i < 3; i++) uploads.push(await upload());
const inARowPeakMB = mb('VmHWM');
uploads.push(...(await Promise.all([upload(), upload()])));
console.log(
  JSON.stringify({ label, node: nodeBin, flags: nodeFlags, idleRssMB, inARowPeakMB, peakMB: mb('VmHWM'), uploads }),
);
child.kill('SIGTERM');
child.on('exit', () => rmSync(dir, { recursive: true, force: true }));
