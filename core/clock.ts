/** The only source of "now" in domain code, so tests can move time instead of waiting. */
export interface Clock {
  now(): number;
}

// The one place real time enters; everything else asks a Clock.
// eslint-disable-next-line no-restricted-properties
export const systemClock: Clock = { now: () => Date.now() };

/** A clock that only moves when told to. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: number = Date.UTC(2026, 10, 22, 12, 0, 0)) {
    this.current = start;
  }
  now(): number {
    return this.current;
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

export const SECOND = 1000;
export const MINUTE = 60 * SECOND;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

export const isoTime = (ms: number): string => new Date(ms).toISOString();
