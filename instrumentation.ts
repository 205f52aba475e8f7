/**
 * Starts watching the configured clusters when the server boots, so the first page already has synced data
 * instead of starting the fleet on the first request.
 */
export async function register(): Promise<void> {
  // Written as a positive test so the Edge compile drops the branch, and with it every Node-only import.
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { registerNode } = await import('./instrumentation-node');
    registerNode();
  }
}
