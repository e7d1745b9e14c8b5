import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  // side-by-side.html: two servers' pages beside each other (src/ui/live/side-by-side.tsx).
  build: { target: 'es2022', sourcemap: true, rollupOptions: { input: { main: 'index.html', sideBySide: 'side-by-side.html' } } },
  server: { host: '127.0.0.1', port: 5173 },
});
