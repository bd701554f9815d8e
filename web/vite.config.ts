// Builds the web pages (web/ → web/dist), one HTML entry per page; in dev, forwards /ws to the local server.
import { defineConfig } from 'vite';
import { fileURLToPath } from 'node:url';

const here = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

/**
 * Every page is a file at the top of web/, so `/display` finds `display.html` both in `vite dev` and
 * behind a static server that tries `.html` (express.static with `extensions: ['html']`).
 * `/` is the display too: a screen pointed at the bare address shows the game.
 */
const PAGES = {
  index: here('./index.html'),
  display: here('./display.html'),
  referee: here('./referee.html'),
  setup: here('./setup.html'),
  games: here('./games.html'),
  stats: here('./stats.html'),
  tournament: here('./tournament.html'),
};

export default defineConfig({
  root: here('.'),
  // Unknown paths are a 404, not the display in disguise.
  appType: 'mpa',
  build: {
    outDir: here('./dist'),
    emptyOutDir: true,
    rolldownOptions: { input: PAGES },
  },
  server: {
    proxy: {
      '/ws': { target: 'http://localhost:3000', ws: true },
    },
  },
  preview: {
    proxy: {
      '/ws': { target: 'http://localhost:3000', ws: true },
    },
  },
});
