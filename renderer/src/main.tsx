import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { HostContext, detectHost } from './api/client';
import { App } from './app';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');
createRoot(root).render(
  <StrictMode>
    <HostContext.Provider value={detectHost()}>
      <App />
    </HostContext.Provider>
  </StrictMode>,
);
