import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // Bundled instead of loaded from node_modules: pure ES modules spread over ~1,000 files,
      // whose reading and linking was the largest part of a service start.
      externalizeDeps: { exclude: ['kysely', 'typebox'] },
      rollupOptions: {
        input: {
          // The Electron shell, and the browser-mode shell used where Electron is not installed.
          index: resolve('src/main/electron/main.ts'),
          browser: resolve('src/main/browser/main.ts'),
          // The embedded tracking service with its simulated world, forked out of the UI process.
          'service-process': resolve('src/embedded/service-process.ts'),
          // The `quayside` command (bin/quayside.mjs loads it): built like the rest, so no command,
          // service or worker compiles TypeScript when it starts.
          cli: resolve('src/cli/index.ts'),
          // Its sea-route worker thread (src/service/routing/sea-routes-client.ts finds it here).
          'sea-route-worker': resolve('src/service/routing/sea-route-worker.ts'),
          // Its document reader process (src/service/documents/document-reader.ts finds it here).
          'document-worker': resolve('src/service/documents/document-worker.ts'),
          // The cache's checkpointing thread (src/main/cache/checkpointer.ts finds it here).
          'checkpoint-worker': resolve('src/main/cache/checkpoint-worker.ts'),
          // The sync's page thread (src/main/sync/page-thread.ts finds it here).
          'page-worker': resolve('src/main/sync/page-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // Sandboxed preloads cannot load ES modules: emit CommonJS.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
    plugins: [react()],
  },
});
