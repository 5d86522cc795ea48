/** A call that cannot run: bad input, a missing key. The message is one line, safe to show. */
export class ToolRefusal extends Error {
  override readonly name = 'ToolRefusal';
}
