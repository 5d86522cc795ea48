/**
 * A finding, in core's vocabulary. Its one declaration is `src/shared/finding.ts`: the page's view, the JSON report
 * and the MCP result derive from the same schema, and the page may import nothing outside `src/shared/`.
 */
export { findingSchema, type Finding } from '../../shared/finding';
