/** What the session table needs to know of one held session. */
export interface HeldSession {
  /** The opener's address group (core/limits/address-group.ts): an IPv4 address or an IPv6 /64. */
  group: string;
  lastSeen: number;
  /** Its `initialize` is still being answered: closing it now would answer that with a 404. */
  opening: boolean;
}

interface SessionShares {
  /** Sessions one address group may hold at once. */
  perAddress: number;
  /** Sessions the process holds at most. */
  total: number;
}

/** Room for one more session: there is some, an open session must give up its place, or none now. */
export type Room = { kind: 'free' } | { kind: 'evict'; id: string } | { kind: 'busy' };

/**
 * Where one more session from `group` fits. A group at its share gives up its own least recently
 * used session. A full table takes the least recently used session of the group holding the
 * most: the newcomer is not refused, so no address, however many sessions it opens, can lock
 * another one out. Sessions still opening are counted but never taken; when only those could
 * give way (a burst of initializes at once), the answer is 'busy'. `sessions` is in order of use,
 * so among sessions last used at the same time the first one gives way.
 */
export function roomFor<S extends HeldSession>(
  sessions: ReadonlyMap<string, S>,
  group: string,
  shares: SessionShares,
): Room {
  const byGroup = new Map<string, [string, S][]>();
  for (const entry of sessions) {
    const held = byGroup.get(entry[1].group);
    if (held) held.push(entry);
    else byGroup.set(entry[1].group, [entry]);
  }
  const own = byGroup.get(group) ?? [];
  if (own.length >= shares.perAddress) return giveWay(own);
  if (sessions.size < shares.total) return { kind: 'free' };
  const most = Math.max(...[...byGroup.values()].map((held) => held.length));
  return giveWay([...byGroup.values()].filter((held) => held.length === most).flat());
}

function giveWay<S extends HeldSession>(entries: [string, S][]): Room {
  let oldest: [string, S] | undefined;
  for (const entry of entries) {
    if (!entry[1].opening && (!oldest || entry[1].lastSeen < oldest[1].lastSeen)) oldest = entry;
  }
  return oldest ? { kind: 'evict', id: oldest[0] } : { kind: 'busy' };
}
