import { strict as assert } from 'node:assert';
import { trackRange, type LineEdit } from '../../../src/core/domain/lineTracking';

const edit = (startLine: number, endLine: number, insertedLineBreaks: number, startCharacter = 3): LineEdit => ({ startLine, startCharacter, endLine, insertedLineBreaks });

describe('trackRange', () => {
  const range = { start: 10, end: 12 };

  it('leaves a range alone when the edit is below it', () => {
    assert.deepEqual(trackRange(range, edit(13, 15, 0)), range);
  });

  it('shifts a range by the lines added or removed above it', () => {
    assert.deepEqual(trackRange(range, edit(2, 2, 3)), { start: 13, end: 15 });
    assert.deepEqual(trackRange(range, edit(2, 5, 0)), { start: 7, end: 9 });
    // A line break typed at the end of the line just above.
    assert.deepEqual(trackRange(range, edit(9, 9, 1)), { start: 11, end: 13 });
  });

  it('keeps a range whose lines were edited inside, grown or shrunk', () => {
    assert.deepEqual(trackRange(range, edit(11, 11, 0)), range);
    assert.deepEqual(trackRange(range, edit(11, 11, 2)), { start: 10, end: 14 });
    assert.deepEqual(trackRange(range, edit(10, 12, 0)), { start: 10, end: 10 });
  });

  it('drops a range whose whole lines were deleted', () => {
    assert.equal(trackRange(range, edit(10, 13, 0, 0)), undefined);
    assert.equal(trackRange(range, edit(4, 20, 0)), undefined);
  });

  it('keeps a range when whole lines are replaced by new lines (a paste over them)', () => {
    assert.deepEqual(trackRange(range, edit(10, 13, 1, 0)), { start: 10, end: 10 });
  });
});
