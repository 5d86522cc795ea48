import * as z from 'zod/mini';

// The panel's CSP forbids eval. Zod probes for it (and trips a CSP report) the first time it builds an
// object schema unless told not to, so this module is imported before any schema is created.
z.config({ jitless: true });
