/**
 * The benchmark's side of bench/service-child.ts: forks it for one tree and configuration, and
 * asks it one thing at a time over IPC.
 */
import { START_NODE_FLAGS } from '../test/helpers/start-flags.ts';
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { ChildReply, ChildRequest } from './service-child.ts';

export interface ServiceChild {
  process: ChildProcess;
  /** Sends one request and resolves with its answer; rejects on `failed` or if the child ends first. */
  ask(request: ChildRequest): Promise<ChildReply>;
}

/**
 * The service of the tree at `root`, resolved once its workers have warmed up. It is in `live`
 * until it exits, so that whoever started it can stop it whatever happens.
 */
export async function startServiceChild(
  root: string,
  configFile: string,
  dbFile: string,
  live: Set<ServiceChild>,
): Promise<ServiceChild> {
  const child = fork(join(import.meta.dirname, 'service-child.ts'), [root, configFile, dbFile], {
    // tsx is found through the tree's node_modules (the baseline's is a link to this tree's).
    cwd: root,
    execArgv: ['--import', 'tsx', ...START_NODE_FLAGS],
    // The allocator settings of `npm start` (package.json), unless the caller set others.
    env: {
      ...process.env,
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      MALLOC_MMAP_THRESHOLD_: process.env.MALLOC_MMAP_THRESHOLD_ ?? '1048576',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let waiting: { resolve: (reply: ChildReply) => void; reject: (error: Error) => void } | undefined;
  const next = () => new Promise<ChildReply>((resolve, reject) => (waiting = { resolve, reject }));
  const answered = (reply: ChildReply | Error) => {
    const w = waiting;
    waiting = undefined;
    if (reply instanceof Error) w?.reject(reply);
    else if (reply.type === 'failed') w?.reject(new Error(`service of ${root}: ${reply.error}`));
    else w?.resolve(reply);
  };
  child.on('message', (reply: ChildReply) => answered(reply));
  child.on('error', (error) => answered(error));
  child.on('exit', (code, signal) => {
    live.delete(service);
    answered(new Error(`service of ${root} exited with ${code ?? signal}`));
  });
  const service: ServiceChild = {
    process: child,
    ask(request) {
      const reply = next();
      child.send(request);
      return reply;
    },
  };
  live.add(service);
  await next();
  return service;
}
