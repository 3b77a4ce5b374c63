import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressGroup } from '../core/limits/address-group.ts';
import { braceletBody, openJob, uploadPng } from './helpers/flows.ts';
import {
  ROOMY_JOBS,
  cleanUpServicesAfterEach,
  expectRateLimited,
  expectStatus,
  png,
  postJob,
  start,
} from './helpers/rate-limit-harness.ts';

cleanUpServicesAfterEach();

const hextet = fc.integer({ min: 0, max: 0xffff });
const hextets = fc.array(hextet, { minLength: 8, maxLength: 8 });
const full = (h: number[]) => h.map((x) => x.toString(16).padStart(4, '0')).join(':');
/** The WHATWG URL parser's own compressed form: a second writer of the same address. */
const compressed = (h: number[]) => new URL(`http://[${full(h)}]/`).hostname.slice(1, -1);

describe('addressGroup: the unit per-address limits count', () => {
  it('keeps IPv4 addresses whole and reads IPv4-mapped IPv6 as its IPv4 address', () => {
    expect(addressGroup('198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressGroup('::FFFF:c633:6407')).toBe('198.51.100.7');
    expect(addressGroup('unknown')).toBe('unknown');
  });

  it('groups IPv6 addresses by /64, however the address is written', () => {
    fc.assert(
      fc.property(hextets, hextets, (h, other) => {
        const mapped = h.slice(0, 6).join() === '0,0,0,0,0,65535';
        fc.pre(!mapped);
        const group = addressGroup(compressed(h));
        expect(addressGroup(full(h).toUpperCase())).toBe(group);
        expect(addressGroup(`${compressed(h)}%eth0`)).toBe(group);
        // Another interface id in the same /64: the same group.
        const sameNet = [...h.slice(0, 4), ...other.slice(4)];
        expect(addressGroup(compressed(sameNet))).toBe(group);
        // Another /64: another group.
        const otherNet = [...other.slice(0, 4), ...h.slice(4)];
        fc.pre(otherNet.slice(0, 4).join() !== h.slice(0, 4).join());
        fc.pre(otherNet.slice(0, 6).join() !== '0,0,0,0,0,65535');
        expect(addressGroup(compressed(otherNet))).not.toBe(group);
      }),
      { numRuns: 500 },
    );
  });
});

const NET = '2001:db8:1:2';
const OTHER_NET = '2001:db8:1:3';

describe('per-address REST buckets count an IPv6 client by its /64', () => {
  it('POST /jobs: addresses of one /64 share jobsPerHourPerIp; another /64 has its own', async () => {
    const service = await start({ jobsPerHourPerIp: 2 });
    await openJob(service, braceletBody, `${NET}::1`);
    await openJob(service, braceletBody, `${NET}:ffff:ffff:ffff:fffe`);
    await expectRateLimited(await postJob(service, `${NET}::3`), 'jobsPerHourPerIp', 3600);
    await openJob(service, braceletBody, `${OTHER_NET}::1`);
  });

  it('uploads: addresses of one /64 share submissionsPerHourPerIp', async () => {
    const service = await start({ ...ROOMY_JOBS, submissionsPerHourPerIp: 2 });
    const job = await openJob(service, braceletBody, `${NET}::1`);
    await expectStatus(await uploadPng(service, job, png(1), `${NET}::a`), 200);
    await expectStatus(await uploadPng(service, job, png(2), `${NET}::b`), 200);
    await expectRateLimited(await uploadPng(service, job, png(3), `${NET}::c`), 'submissionsPerHourPerIp', 3600);
    await expectStatus(await uploadPng(service, job, png(3), `${OTHER_NET}::c`), 200);
  });
});
