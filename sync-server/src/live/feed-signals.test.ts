// The in-process signal, and the per-node listeners every FeedSignals implementation delivers to.
import { describe, expect, it } from 'vitest';
import { FeedListeners, inProcessFeedSignals } from './feed-signals';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('FeedListeners', () => {
  it("calls the listeners of the users named, once each, and nobody else's", () => {
    const listeners = new FeedListeners();
    const heard: string[] = [];
    listeners.subscribe('ann', () => heard.push('ann 1'));
    listeners.subscribe('ann', () => heard.push('ann 2'));
    listeners.subscribe('bob', () => heard.push('bob'));
    listeners.deliver(['ann', 'ann', 'carl']);
    expect(heard).toEqual(['ann 1', 'ann 2']);
  });

  it('keeps delivering past a listener that throws, and forgets an unsubscribed one once', () => {
    const listeners = new FeedListeners();
    const heard: string[] = [];
    const stop = listeners.subscribe('ann', () => {
      throw new Error('a broken stream');
    });
    listeners.subscribe('ann', () => heard.push('second'));
    listeners.deliver(['ann']);
    expect(heard).toEqual(['second']);
    expect(listeners.size).toBe(2);
    stop();
    stop();
    expect(listeners.size).toBe(1);
  });

  it('calls every listener still subscribed, once each, when told to deliver to all', () => {
    const listeners = new FeedListeners();
    const heard: string[] = [];
    listeners.subscribe('ann', () => heard.push('ann 1'));
    listeners.subscribe('ann', () => heard.push('ann 2'));
    const stopBob = listeners.subscribe('bob', () => heard.push('bob'));
    listeners.subscribe('carl', () => heard.push('carl'));
    stopBob();
    listeners.deliverToAll();
    expect(heard).toEqual(['ann 1', 'ann 2', 'carl']);
  });
});

describe('inProcessFeedSignals', () => {
  it('delivers after the publisher has returned, and nothing once closed', async () => {
    const signals = inProcessFeedSignals();
    const heard: string[] = [];
    const stop = signals.subscribe('ann', () => heard.push('ann'));
    signals.publish(['ann']);
    expect(heard).toEqual([]);
    await nextTurn();
    expect(heard).toEqual(['ann']);
    stop();
    expect(signals.listenerCount()).toBe(0);
    signals.subscribe('ann', () => heard.push('again'));
    await signals.close();
    signals.publish(['ann']);
    await nextTurn();
    expect(heard).toEqual(['ann']);
  });
});
