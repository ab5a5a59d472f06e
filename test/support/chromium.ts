// Debian's Chromium, driven by playwright-core (never a downloaded browser). The global set-up
// starts one for the whole run (launchServer) and the console tests connect to it: one browser
// start per run instead of one per test file. Each test still gets its own browser contexts.
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
