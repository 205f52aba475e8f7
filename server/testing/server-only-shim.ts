// Stand-in for the 'server-only' guard when server code runs outside Next (vitest, CLIs).
export {};
