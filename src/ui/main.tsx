// Entry point: connects the simulation (the worker, or the server the page is attached to) and renders the app.

import '@xyflow/react/dist/style.css';
import './app.css';
import './i18n/index.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { connectSim } from './sim-worker.ts';
import { SimContext } from './store/sim-context.ts';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const connection = connectSim();

createRoot(root).render(
  <StrictMode>
    <SimContext value={connection}>
      <App />
    </SimContext>
  </StrictMode>,
);
