import { fork } from 'node:child_process';
import type { Fork } from './launcher';

/** Forks the embedded service as a plain Node child process (browser mode). */
export function forkNodeProcess(entry: string): Fork {
  return (env) => {
    const child = fork(entry, [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return {
      onMessage: (listener) => child.on('message', listener),
      onExit: (listener) => child.on('exit', (code) => listener(code)),
      send: (message) => {
        if (child.connected) child.send(message);
      },
      kill: () => child.kill('SIGKILL'),
    };
  };
}
