import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';

import { debounce } from '../src/common/debounce';

beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
afterEach(() => mock.timers.reset());

test('a burst runs once, after the quiet period, with the last arguments', () => {
    const calls: string[] = [];
    const d = debounce((q: string) => calls.push(q), 150);
    d('p');
    mock.timers.tick(100);
    d('pr');
    mock.timers.tick(100);
    d('pri');
    assert.deepEqual(calls, []);
    assert.equal(d.pending, true);
    mock.timers.tick(149);
    assert.deepEqual(calls, []);
    mock.timers.tick(1);
    assert.deepEqual(calls, ['pri']);
    assert.equal(d.pending, false);
});

test('cancel drops the pending call', () => {
    const calls: number[] = [];
    const d = debounce(() => calls.push(1), 500);
    d();
    d.cancel();
    mock.timers.tick(1000);
    assert.deepEqual(calls, []);
});
