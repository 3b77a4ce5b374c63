import { DAY, HOUR, MINUTE, SECOND } from '../clock.ts';

/** A bucket's window: a sliding minute or hour over the exact hit times, or the calendar day in UTC. */
export type Window = 'minute' | 'hour' | 'utcDay';

const lengthMs: Record<Window, number> = { minute: MINUTE, hour: HOUR, utcDay: DAY };

/** The window's length in whole seconds. */
export const windowSeconds = (window: Window): number => lengthMs[window] / SECOND;

const startOfUtcDay = (now: number): number => now - (now % DAY);

const secondsToMidnight = (now: number): number => Math.max(1, Math.ceil((startOfUtcDay(now) + DAY - now) / SECOND));

/** Hits after this instant are inside the window. */
export function windowStart(window: Window, now: number): number {
  if (window === 'utcDay') return startOfUtcDay(now) - 1;
  return now - lengthMs[window];
}

/** The 429's `Retry-After`: the bucket's window, or the seconds left until midnight UTC for a daily bucket. */
export function retryAfter(window: Window, now: number): number {
  if (window === 'utcDay') return secondsToMidnight(now);
  return windowSeconds(window);
}

/**
 * Seconds until the bucket next has one more slot than now. A sliding window frees one slot at a
 * time, when its oldest hit leaves it (`oldest` + the window); a UTC day frees all of them at
 * midnight. Never more than the window, even if the clock was set back past stored hits.
 */
export function nextSlotIn(window: Window, oldest: number, now: number): number {
  if (window === 'utcDay') return secondsToMidnight(now);
  const seconds = Math.ceil((oldest + lengthMs[window] - now) / SECOND);
  return Math.min(windowSeconds(window), Math.max(1, seconds));
}
