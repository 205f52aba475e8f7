/**
 * Imported first by every CLI: ES modules evaluate their imports in order, so this runs before anything that loads
 * a native addon or relies on a newer runtime, and an unsupported Node.js ends in one line instead of a stack trace.
 */
import { exitUnlessSupportedNode } from './node-version';

exitUnlessSupportedNode();
