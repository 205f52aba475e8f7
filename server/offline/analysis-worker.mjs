// The entry of an analysis worker thread. A worker starts outside tsx and outside Next's server bundle (both under
// `npm start` and in tests), so it registers tsx itself and then loads the TypeScript worker body; the parent passes
// --conditions=react-server, as the project runs all server code.
import { register } from 'tsx/esm/api';

register();
await import('./analysis-worker.ts');
