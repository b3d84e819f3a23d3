import { Menu, type MenuItemConstructorOptions } from 'electron';

/**
 * The application menu: the standard roles (so the usual shortcuts for copy, paste, undo, zoom,
 * full screen and quit work on every platform) plus the few actions that belong to the shell
 * rather than to the page.
 */
export function buildMenu(actions: {
  openWorkspace: () => void;
  showWorkspace: () => void;
  importNotes: () => void;
  showLogs: () => void;
  dev: boolean;
}): Menu {
  const mac = process.platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [
    ...(mac ? [{ role: 'appMenu' as const }] : []),
    {
      label: '&File',
      submenu: [
        { label: 'Open Workspace Folder…', accelerator: 'CmdOrCtrl+O', click: actions.openWorkspace },
        { label: 'Show Workspace Folder', click: actions.showWorkspace },
        { label: 'Import a Folder of Notes…', click: actions.importNotes },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
        { role: 'reload' },
        ...(actions.dev ? [{ role: 'forceReload' as const }, { role: 'toggleDevTools' as const }] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ label: 'Show Log Folder', click: actions.showLogs }],
    },
  ];
  return Menu.buildFromTemplate(template);
}
