// The design system's styles come first so that each screen's own rules, imported with it, win ties.
import './styles/index.css';
import './session/shell.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { ToastProvider } from './components/ToastProvider';
import { browserLectern, LecternProvider } from './session/LecternProvider';
import { SessionProvider } from './session/SessionProvider';
import { UpdatePrompt } from './session/UpdatePrompt';

// The data layer's chunk (Dexie, the sync engine) starts loading now, beside the first render's work.
void browserLectern();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <BrowserRouter>
      <LecternProvider>
        <ToastProvider>
          <SessionProvider>
            <App />
          </SessionProvider>
          <UpdatePrompt />
        </ToastProvider>
      </LecternProvider>
    </BrowserRouter>
  </StrictMode>,
);
